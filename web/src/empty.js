// Stands in for Node's `fs`, which SentencePiece's loader imports for its file-path method; the
// panel loads models from bytes only.
export default {};
