"""A hand-set encoder-decoder from a published worked example, rebuilt from the package's parts.

A two-cell peephole LSTM encoder (Graves 2013, :class:`~companion.models.lstm.PeepholeLSTMCell`)
reads a three-word source language ``{A, B, <EOS>}``; a second peephole LSTM decodes into the
target language ``{W, X, <EOS>}`` through a softmax that also has a (never chosen) ``<BOS>``
entry. All parameters are fixed numbers (the worked example's; its decoder's weights are the
encoder's scaled by 0.8, biases unscaled), everything runs in float64, and
:func:`hand_set_toy_lines` prints the 17 lines the worked example published -- the final states for
the forward and reversed source, the last gates, one decoder step, the probability of
``W <EOS>``, and the best output by exhaustive search and by beam search of width 2. The example
computed them with the Python 3.9.6 standard library (double precision); the package reproduces
them with torch in float64, and :data:`HAND_SET_TOY_RECORDED` keeps them for comparison.

Token ids follow the project's convention (PAD=0, BOS=1, EOS=2, UNK=3); the words come after:
source ``A=4, B=5``, target ``W=4, X=5``. PAD and UNK get a logit of ``-inf``, so the softmax is
exactly the worked example's four-way softmax over ``<BOS>, W, X, <EOS>``.
"""

from __future__ import annotations

import math

import torch
from torch import nn

from companion.data.batching import reverse_padded
from companion.decoding.search import Hypothesis, beam_search, exhaustive_search
from companion.errors import DataError
from companion.models.lstm import PeepholeLSTMCell
from companion.repro import fmt
from companion.specials import BOS, EOS, PAD

#: source and target words -> ids
SRC_IDS = {"A": 4, "B": 5, "<EOS>": EOS}
TGT_IDS = {"<BOS>": BOS, "W": 4, "X": 5, "<EOS>": EOS}
TGT_WORDS = {i: w for w, i in TGT_IDS.items()}

# The worked example's parameters (facts, not code): rows are output units, columns inputs.
_GATES = {
    "W_xi": [[0.40, -0.10], [0.20, 0.30]], "W_hi": [[0.10, 0.20], [-0.20, 0.10]],
    "W_xf": [[0.30, 0.20], [-0.10, 0.40]], "W_hf": [[0.20, -0.10], [0.10, 0.20]],
    "W_xc": [[0.50, -0.30], [0.20, 0.40]], "W_hc": [[0.20, 0.10], [-0.10, 0.30]],
    "W_xo": [[0.30, 0.10], [0.20, -0.20]], "W_ho": [[0.10, -0.20], [0.30, 0.10]],
    "w_ci": [0.05, -0.04], "w_cf": [0.02, 0.03], "w_co": [0.04, -0.02],
}
_BIASES = {"b_i": [0.10, -0.05], "b_f": [0.20, 0.15], "b_c": [0.00, 0.05], "b_o": [0.10, 0.00]}
_SRC_EMBED = {"A": [0.40, -0.20], "B": [-0.30, 0.50], "<EOS>": [0.10, 0.10]}
_TGT_EMBED = {"<BOS>": [0.00, 0.00], "W": [0.50, 0.10], "X": [-0.10, 0.40], "<EOS>": [0.20, -0.20]}
_OUT = {"<BOS>": ([0.00, 0.00], -9.0), "W": ([0.60, -0.10], 0.05),
        "X": ([-0.20, 0.30], 0.00), "<EOS>": ([0.20, 0.50], -0.15)}
ENCODER_SCALE, DECODER_SCALE = 1.0, 0.8
VOCAB_SIZE = 6  # PAD, BOS, EOS, UNK and two words


def _toy_cell(scale: float) -> PeepholeLSTMCell:
    cell = PeepholeLSTMCell(2, 2, dtype=torch.float64)
    with torch.no_grad():
        for name, value in _GATES.items():
            getattr(cell, name).copy_(torch.tensor(value, dtype=torch.float64) * scale)
        for name, value in _BIASES.items():
            getattr(cell, name).copy_(torch.tensor(value, dtype=torch.float64))
    return cell


class ToySeq2Seq(nn.Module):
    """The hand-set encoder-decoder: embeddings (6, 2), two peephole LSTM cells (H = 2) and
    a linear softmax layer, float64, with the decoding interface of :mod:`companion.decoding`
    (``encode`` / ``step`` / ``reorder_state``; the state is ``(h, c)``, each ``(N, 2)``)."""

    tgt_vocab_size = VOCAB_SIZE

    def __init__(self) -> None:
        super().__init__()
        f64 = torch.float64
        self.src_embed = nn.Embedding(VOCAB_SIZE, 2, padding_idx=PAD, dtype=f64)
        self.tgt_embed = nn.Embedding(VOCAB_SIZE, 2, padding_idx=PAD, dtype=f64)
        self.encoder = _toy_cell(ENCODER_SCALE)
        self.decoder = _toy_cell(DECODER_SCALE)
        self.generator = nn.Linear(2, VOCAB_SIZE, dtype=f64)
        with torch.no_grad():
            self.src_embed.weight.zero_()
            self.tgt_embed.weight.zero_()
            self.generator.weight.zero_()
            self.generator.bias.fill_(-math.inf)  # PAD and UNK: probability exactly 0
            for word, vec in _SRC_EMBED.items():
                self.src_embed.weight[SRC_IDS[word]] = torch.tensor(vec, dtype=f64)
            for word, vec in _TGT_EMBED.items():
                self.tgt_embed.weight[TGT_IDS[word]] = torch.tensor(vec, dtype=f64)
            for word, (row, bias) in _OUT.items():
                self.generator.weight[TGT_IDS[word]] = torch.tensor(row, dtype=f64)
                self.generator.bias[TGT_IDS[word]] = bias

    def encode_with_gates(self, src: torch.Tensor, src_lengths: torch.Tensor):
        """Run the encoder; return ``((h, c), gates)`` where ``gates`` holds ``i, f, g, o``
        ``(B, 2)`` of each sentence's last real step (its EOS)."""
        if src.dim() != 2 or src_lengths.shape != (src.shape[0],):
            raise DataError(f"ToySeq2Seq: src must be (B, S) with (B,) lengths, got {tuple(src.shape)}")
        B = src.shape[0]
        h, c = self.encoder.initial_state(B)
        last: dict[str, torch.Tensor] = {}
        emb = self.src_embed(src)  # (B, S, 2)
        for t in range(int(src_lengths.max())):
            out = self.encoder.gates(emb[:, t], (h, c))
            live = (t < src_lengths).unsqueeze(1)  # PAD steps keep the state
            h = torch.where(live, out["h"], h)
            c = torch.where(live, out["c"], c)
            at_end = (t == src_lengths - 1).unsqueeze(1)
            for key in "ifgo":
                last[key] = torch.where(at_end, out[key], last.get(key, out[key]))
        return (h, c), last

    def encode(self, src: torch.Tensor, src_lengths: torch.Tensor):
        """``src`` (B, S), ``src_lengths`` (B,) -> decoder initial state ``(h, c)``."""
        return self.encode_with_gates(src, src_lengths)[0]

    def step(self, prev_tokens: torch.Tensor, state):
        """``prev_tokens`` (N,) -> ``log_probs`` (N, 6) and the new ``(h, c)``."""
        h, c = self.decoder(self.tgt_embed(prev_tokens), state)
        return torch.log_softmax(self.generator(h), dim=-1), (h, c)

    @staticmethod
    def reorder_state(state, index: torch.Tensor):
        h, c = state
        return h.index_select(0, index), c.index_select(0, index)


def source(words: list[str]) -> tuple[torch.Tensor, torch.Tensor]:
    """Ids ``(1, S)`` and lengths ``(1,)`` of a source sentence such as ``["A", "B", "<EOS>"]``."""
    try:
        ids = [SRC_IDS[w] for w in words]
    except KeyError as exc:
        raise DataError(f"toy source: unknown word {exc.args[0]!r} (known: A, B, <EOS>)") from None
    return torch.tensor([ids]), torch.tensor([len(ids)])


def words(hyp: Hypothesis) -> str:
    """Target words of a hypothesis joined by commas, e.g. ``W,<EOS>``."""
    return ",".join(TGT_WORDS[t] for t in hyp.tokens)


def hand_set_toy_lines(model: ToySeq2Seq | None = None) -> list[str]:
    """The 17 lines the hand-set toy's worked example published, computed with the package (torch,
    float64): compare them with :data:`HAND_SET_TOY_RECORDED`."""
    model = model or ToySeq2Seq()
    W = TGT_IDS["W"]
    with torch.no_grad():
        src, n = source(["A", "B", "<EOS>"])
        (fh, fc), _ = model.encode_with_gates(src, n)
        rev = reverse_padded(src, n)  # B A <EOS>: the paper's source reversal
        (rh, rc), gates = model.encode_with_gates(rev, n)
        first, (dh, dc) = model.step(torch.tensor([BOS]), (rh, rc))
        p_first = first.exp()[0]
        second, _ = model.step(torch.tensor([W]), (dh, dc))
        logp_w_eos = float(first[0, W] + second[0, EOS])
    # the worked example's search space: complete outputs (ending with EOS) of at most 3 tokens
    exact = exhaustive_search(model, rev, n, max_len=3, at_limit="eos")[0][0]
    beam = beam_search(model, rev, n, beam_size=2, finish_rule="every", max_len=3, at_limit="eos")[0][0]
    changed = not (torch.equal(fh, rh) and torch.equal(fc, rc))
    return [
        f"encoder_forward_h={fmt(fh, 6)}",
        f"encoder_reversed_h={fmt(rh, 6)}",
        f"encoder_forward_c={fmt(fc, 6)}",
        f"encoder_reversed_c={fmt(rc, 6)}",
        f"last_input_gate={fmt(gates['i'], 6)}",
        f"last_forget_gate={fmt(gates['f'], 6)}",
        f"last_output_gate={fmt(gates['o'], 6)}",
        f"source_order_changes_state={changed}",
        f"decoder_after_BOS_h={fmt(dh, 6)}",
        f"decoder_after_BOS_c={fmt(dc, 6)}",
        f"softmax_sum={fmt(p_first.sum(), 12)}",
        f"p_W_given_v_BOS={fmt(p_first[W], 9)}",
        f"p_EOS_given_v_W={fmt(second.exp()[0, EOS], 9)}",
        f"p_W_EOS_given_v={fmt(math.exp(logp_w_eos), 9)}",
        f"nll_W_EOS_given_v={fmt(-logp_w_eos, 9)}",
        f"exhaustive_best={words(exact)} logp={fmt(exact.log_prob, 9)}",
        f"beam2_best={words(beam)} logp={fmt(beam.log_prob, 9)}",
    ]


#: the 17 lines published for the hand-set toy, computed there with the Python 3.9.6 standard
#: library
HAND_SET_TOY_RECORDED = """\
encoder_forward_h=-0.010396,0.060875
encoder_reversed_h=0.026832,0.052776
encoder_forward_c=-0.019560,0.122713
encoder_reversed_c=0.050282,0.105306
last_input_gate=0.536191,0.498625
last_forget_gate=0.563002,0.548480
last_output_gate=0.534078,0.503019
source_order_changes_state=True
decoder_after_BOS_h=0.016833,0.043270
decoder_after_BOS_c=0.032155,0.086354
softmax_sum=1.000000000000
p_W_given_v_BOS=0.358469977
p_EOS_given_v_W=0.301220273
p_W_EOS_given_v=0.107978424
nll_W_EOS_given_v=2.225823847
exhaustive_best=<EOS> logp=-1.206681609
beam2_best=<EOS> logp=-1.206681609""".splitlines()


__all__ = ["ToySeq2Seq", "hand_set_toy_lines", "HAND_SET_TOY_RECORDED", "source", "words", "SRC_IDS", "TGT_IDS"]
