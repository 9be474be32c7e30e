// The two libraries the panel runs, bundled by esbuild into one classic script (a file:// page
// may not load ES modules): onnxruntime-web's WebAssembly build, whose Emscripten glue this
// entry embeds (no dynamic import of a neighbouring .mjs), and SentencePiece compiled to
// WebAssembly (its .wasm is inlined by the package itself).
import * as ort from "onnxruntime-web/wasm";
import { SentencePieceProcessor } from "@sctg/sentencepiece-js";

globalThis.ort = ort;
globalThis.SentencePieceProcessor = SentencePieceProcessor;
