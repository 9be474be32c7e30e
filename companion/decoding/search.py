"""Decoding as search: greedy, batched beam search, exhaustive search, ensembles.

A trained encoder-decoder defines ``p(y | x) = prod_t p(y_t | y_<t, x)``; translating means
searching for ``argmax_y p(y | x)`` (Sutskever et al. 2014, eq. 2). Every function here works on
any model with the three-method decoding interface::

    state = model.encode(src (B, S), src_lengths (B,))      # anything reorder_state can index
    log_probs (N, V), state = model.step(prev_tokens (N,), state)
    state = model.reorder_state(state, index (N',))         # select / repeat rows

so the LSTM encoder-decoder, RNNsearch and the Transformer share the same search code.

Conventions:

- hypotheses never contain BOS or PAD (both are banned at every step); every returned hypothesis
  ends with EOS: at the last allowed step only EOS may be chosen;
- the longest output of sentence ``i`` is ``min(max_len, floor(max_len_a * src_lengths[i] +
  max_len_b))`` tokens, EOS included (``src_lengths`` counts the source's EOS too);
- scores are sums of log-probabilities, optionally divided by a length penalty ``lp(|Y|)``
  where ``|Y|`` counts the generated tokens including EOS: GNMT's
  ``((5 + |Y|) / 6) ** alpha`` (Wu et al. 2016) or plain ``|Y| ** alpha`` (``alpha = 1`` is
  the average log-probability per token). ``alpha = 0`` scores by the raw log-probability.
- outputs are token ids; turning them into text is the vocabulary's job.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import torch

from companion.errors import ConfigError, DataError
from companion.models.contract import check_source
from companion.specials import BOS, EOS, NEVER_GENERATED, PAD, ban_tokens
from companion.validation import check_int

NEG_INF = float("-inf")

#: ids a search never generates


@dataclass(frozen=True)
class Hypothesis:
    """One output sentence.

    Attributes:
        tokens: generated ids, ending with EOS (no BOS, no PAD).
        score: the ranking score: ``log_prob / lp(len(tokens))`` (``log_prob`` when alpha = 0).
        log_prob: ``sum_t log p(y_t | y_<t, x)`` over ``tokens``.
        attention: ``(len(tokens), S)`` weights over the source's real tokens at each output
            step, when the search was asked for them (``return_attention=True``), else None.
    """

    tokens: tuple[int, ...]
    score: float
    log_prob: float
    attention: torch.Tensor | None = field(default=None, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.tokens)


# ----------------------------------------------------------------------------- checks and helpers
def length_penalty(length: int | torch.Tensor, alpha: float, form: str = "gnmt"):
    """``lp(|Y|)``: GNMT's ``((5 + |Y|) / 6) ** alpha`` or plain ``|Y| ** alpha``.

    Works on a Python int or a tensor of lengths; ``alpha = 0`` gives 1.
    """
    if form == "gnmt":
        return ((5.0 + length) / 6.0) ** alpha
    if form == "plain":
        return (length * 1.0) ** alpha
    raise ConfigError(f"decode: length_penalty_form must be 'gnmt' or 'plain', got {form!r}")


_lp = length_penalty  # the search functions' ``length_penalty`` argument shadows the name


def _check_penalty(alpha: float, form: str) -> None:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not math.isfinite(alpha) or alpha < 0:
        raise ConfigError(f"decode: length_penalty (alpha) must be a finite number >= 0, got {alpha!r}")
    length_penalty(1, alpha, form)  # validates the form


def max_lengths(
    src_lengths: torch.Tensor, max_len_a: float = 1.5, max_len_b: int = 10, max_len: int | None = None
) -> torch.Tensor:
    """Longest output per sentence, EOS included: ``min(max_len, floor(a * |src| + b))``, >= 1.

    ``src_lengths`` (B,) -> (B,) int64 on the CPU.
    """
    if isinstance(max_len_a, bool) or not isinstance(max_len_a, (int, float)) or max_len_a < 0:
        raise ConfigError(f"decode: max_len_a must be a number >= 0, got {max_len_a!r}")
    if isinstance(max_len_b, bool) or not isinstance(max_len_b, (int, float)):
        raise ConfigError(f"decode: max_len_b must be a number, got {max_len_b!r}")
    if max_len is not None:
        check_int("max_len", max_len, 1, where="decode")
    lengths = torch.floor(src_lengths.detach().to("cpu", torch.float64) * max_len_a + max_len_b).long()
    if max_len is not None:
        lengths = lengths.clamp(max=max_len)
    if int(lengths.min()) < 1:
        raise ConfigError(
            f"decode: max_len_a * |src| + max_len_b must allow at least one token (EOS), got "
            f"{int(lengths.min())} (max_len_a={max_len_a}, max_len_b={max_len_b})"
        )
    return lengths


def _members(model: Any) -> list[Any]:
    """The modules behind ``model``: its members for an ensemble (anything with ``.models``)."""
    members = getattr(model, "models", None)
    return list(members) if isinstance(members, (list, tuple)) else [model]


@contextlib.contextmanager
def evaluating(model: Any) -> Iterator[None]:
    """Switch ``model`` (or every member of an ensemble) to eval mode and disable
    autograd for the duration; the previous train/eval modes are restored afterwards."""
    members = [m for m in _members(model) if isinstance(m, torch.nn.Module)]
    modes = [m.training for m in members]
    for m in members:
        m.eval()
    try:
        with torch.no_grad():
            yield
    finally:
        for m, mode in zip(members, modes):
            m.train(mode)


def _only_eos(log_probs: torch.Tensor, rows: torch.Tensor) -> torch.Tensor:
    """At the last allowed step of the sentences in ``rows`` (bool, leading dims), only EOS."""
    if bool(rows.any()):
        eos = log_probs[..., EOS].clone()
        log_probs = log_probs.masked_fill(rows.unsqueeze(-1), NEG_INF)
        log_probs[..., EOS] = eos
    return log_probs


# ----------------------------------------------------------------------------- greedy
def greedy_search(
    model: Any,
    src: torch.Tensor,
    src_lengths: torch.Tensor,
    *,
    max_len_a: float = 1.5,
    max_len_b: int = 10,
    max_len: int | None = None,
    return_attention: bool = False,
) -> list[Hypothesis]:
    """Pick the most probable next token at every step, for a whole batch at once.

    ``src`` (B, S), ``src_lengths`` (B,) -> one :class:`Hypothesis` per sentence, in order.
    With ``return_attention=True`` (a model with ``step_attention``, see
    :class:`~companion.models.contract.AttentionTranslator`) each hypothesis carries the
    attention weights of every step, ``(len(tokens), src_lengths[i])``.
    """
    check_source(src, src_lengths, "decode")
    if return_attention and not callable(getattr(model, "step_attention", None)):
        raise ConfigError(f"decode: {type(model).__name__} has no attention to return "
                          f"(it defines no step_attention)")
    limits = max_lengths(src_lengths, max_len_a, max_len_b, max_len)
    B = src.shape[0]
    device = src.device
    with evaluating(model):
        state = model.encode(src, src_lengths)
        prev = torch.full((B,), BOS, dtype=torch.long, device=device)
        done = torch.zeros(B, dtype=torch.bool)
        tokens: list[list[int]] = [[] for _ in range(B)]
        weights: list[list[torch.Tensor]] = [[] for _ in range(B)]
        logp = [0.0] * B
        alive = torch.arange(B)  # original index of each row still decoding
        for t in range(1, int(limits.max()) + 1):
            log_probs, state = model.step(prev, state)
            attn = model.step_attention(state).float().cpu() if return_attention else None
            log_probs = _only_eos(ban_tokens(log_probs), (limits[alive] == t).to(device))
            best_lp, best = log_probs.max(dim=-1)
            best_cpu, lp_cpu = best.tolist(), best_lp.tolist()
            for row, b in enumerate(alive.tolist()):
                tokens[b].append(best_cpu[row])
                logp[b] += lp_cpu[row]
                if attn is not None:
                    weights[b].append(attn[row, : int(src_lengths[b])])
                if best_cpu[row] == EOS:
                    done[b] = True
            keep = ~done[alive]
            if not bool(keep.any()):
                break
            if not bool(keep.all()):
                rows = keep.nonzero().squeeze(1)
                state = model.reorder_state(state, rows.to(device))
                alive = alive[rows]
                best = best[rows.to(device)]
            prev = best
    return [Hypothesis(tuple(t), lp, lp, torch.stack(w) if return_attention else None)
            for t, lp, w in zip(tokens, logp, weights)]


# ----------------------------------------------------------------------------- beam search
def beam_search(
    model: Any,
    src: torch.Tensor,
    src_lengths: torch.Tensor,
    *,
    beam_size: int = 5,
    nbest: int = 1,
    length_penalty: float = 0.0,
    length_penalty_form: Literal["gnmt", "plain"] = "gnmt",
    finish_rule: Literal["top_k", "every"] = "top_k",
    max_len_a: float = 1.5,
    max_len_b: int = 10,
    max_len: int | None = None,
) -> list[list[Hypothesis]]:
    """Left-to-right beam search over all sentences of a batch and their beams at once.

    Every live hypothesis is extended by every token; per sentence the ``beam_size`` best
    extensions by log-probability that do not end in EOS stay live (their decoder states are
    gathered with ``model.reorder_state``). Extensions that end in EOS become *finished*:

    - ``finish_rule="top_k"`` (the paper's description, fairseq's and JoeyNMT's rule): an EOS
      extension finishes only when it ranks among the sentence's ``beam_size`` best extensions
      at that step; with ``beam_size=1`` this is exactly greedy search;
    - ``finish_rule="every"``: every EOS extension of a live hypothesis is kept (the rule of
      the seed-000 verification script).

    Finished hypotheses are ranked by ``log_prob / lp(|Y|)``; the ``nbest`` best are kept. A
    sentence stops when no live hypothesis can still beat its ``nbest``-th finished one (an
    exact bound: log-probabilities only fall as a hypothesis grows), when it reaches its
    length limit, or, under ``"top_k"``, once ``beam_size`` hypotheses have finished.
    Stopped sentences leave the batch, so long sentences do not slow down short ones.

    Args:
        model: an encoder-decoder with ``encode``/``step``/``reorder_state`` (or an
            :class:`~companion.decoding.ensemble.Ensemble`).
        src: ``(B, S)`` source ids, each row ending in EOS, right-padded with PAD.
        src_lengths: ``(B,)`` real source lengths (EOS included).
        beam_size: hypotheses kept live per sentence (``k``).
        nbest: finished hypotheses returned per sentence (``<= beam_size``).
        length_penalty: ``alpha`` of the length penalty; 0 ranks by raw log-probability.
        length_penalty_form: ``"gnmt"`` ``((5+|Y|)/6)^alpha`` or ``"plain"`` ``|Y|^alpha``.
        finish_rule: ``"top_k"`` or ``"every"``, see above.
        max_len_a, max_len_b, max_len: output length limit, see :func:`max_lengths`.

    Returns:
        For each sentence, in input order, up to ``nbest`` :class:`Hypothesis` (best first).
    """
    check_source(src, src_lengths, "decode")
    check_int("beam_size", beam_size, 1, where="decode")
    check_int("nbest", nbest, 1, where="decode")
    if nbest > beam_size:
        raise ConfigError(f"decode: nbest ({nbest}) must not exceed beam_size ({beam_size})")
    _check_penalty(length_penalty, length_penalty_form)
    if finish_rule not in ("top_k", "every"):
        raise ConfigError(f"decode: finish_rule must be 'top_k' or 'every', got {finish_rule!r}")
    limits = max_lengths(src_lengths, max_len_a, max_len_b, max_len)
    B, k, n = src.shape[0], beam_size, nbest
    device = src.device
    L = int(limits.max())

    def lp(lengths):
        return _lp(lengths, length_penalty, length_penalty_form)

    with evaluating(model):
        state = model.encode(src, src_lengths)
        state = model.reorder_state(state, torch.arange(B, device=device).repeat_interleave(k))
        prev = torch.full((B * k,), BOS, dtype=torch.long, device=device)
        alive = torch.arange(B)  # original sentence index of each live sentence (CPU)
        scores: torch.Tensor | None = None  # (A, k) log-probabilities of the live hypotheses
        history = torch.zeros((B, k, 0), dtype=torch.long, device=device)  # (A, k, t-1)
        fin_score = fin_logp = None  # (B, n) each, created with the model's dtype
        fin_tokens = torch.full((B, n, L), PAD, dtype=torch.long, device=device)
        fin_len = torch.zeros((B, n), dtype=torch.long, device=device)
        fin_count = torch.zeros(B, dtype=torch.long, device=device)
        for t in range(1, L + 1):
            log_probs, state = model.step(prev, state)
            A = alive.numel()
            V = log_probs.shape[-1]
            if V < 4 + 1:
                raise ConfigError(f"decode: the model's vocabulary ({V}) has no token besides the specials")
            if scores is None:
                dtype = log_probs.dtype
                scores = torch.full((B, k), NEG_INF, dtype=dtype, device=device)
                scores[:, 0] = 0.0  # one live hypothesis (the empty one) per sentence
                fin_score = torch.full((B, n), NEG_INF, dtype=dtype, device=device)
                fin_logp = torch.full((B, n), NEG_INF, dtype=dtype, device=device)
            lim = limits[alive].to(device)  # (A,)
            cand = ban_tokens(scores.unsqueeze(-1) + log_probs.view(A, k, V), inplace=True)  # (A, k, V)
            last = lim == t
            if bool(last.any()):  # the last allowed step: only EOS
                eos = cand[:, :, EOS].clone()
                cand.masked_fill_(last.view(A, 1, 1), NEG_INF)
                cand[:, :, EOS] = eos
            eos_logp = cand[:, :, EOS]  # (A, k)
            # the 2k best extensions hold at least k that do not end in EOS (one EOS per beam)
            top_val, top_idx = cand.view(A, k * V).topk(min(2 * k, k * V), dim=1)
            top_eos = (top_idx % V) == EOS

            # -- hypotheses that end here
            if finish_rule == "every":
                take = torch.isfinite(eos_logp)
            else:  # EOS extensions among the k best extensions
                hit = (top_eos[:, :k] & torch.isfinite(top_val[:, :k])).to(torch.int64)
                take = torch.zeros((A, k), dtype=torch.int64, device=device)
                take = take.scatter_add_(1, top_idx[:, :k] // V, hit) > 0
            rows = take.any(dim=1).nonzero().squeeze(1)
            if rows.numel() > 0:
                R = rows.numel()
                new_logp = eos_logp[rows].masked_fill(~take[rows], NEG_INF)  # (R, k)
                new_score = new_logp / lp(float(t))
                new_tokens = torch.full((R, k, L), PAD, dtype=torch.long, device=device)
                new_tokens[:, :, : t - 1] = history[rows]
                new_tokens[:, :, t - 1] = EOS
                idx = alive.to(device)[rows]
                all_score = torch.cat([fin_score[idx], new_score], dim=1)  # (R, n + k)
                all_logp = torch.cat([fin_logp[idx], new_logp], dim=1)
                all_len = torch.cat([fin_len[idx], torch.full((R, k), t, device=device)], dim=1)
                all_tokens = torch.cat([fin_tokens[idx], new_tokens], dim=1)
                # stable sort: earlier (shorter) finished hypotheses win ties
                order = torch.sort(all_score, dim=1, descending=True, stable=True).indices[:, :n]
                fin_score[idx] = all_score.gather(1, order)
                fin_logp[idx] = all_logp.gather(1, order)
                fin_len[idx] = all_len.gather(1, order)
                fin_tokens[idx] = all_tokens.gather(1, order.unsqueeze(-1).expand(R, n, L))
                fin_count[idx] += take[rows].sum(dim=1)

            # -- hypotheses that stay live: the k best extensions not ending in EOS
            pick = torch.sort(top_eos.to(torch.int8), dim=1, stable=True).indices[:, :k]
            scores = top_val.gather(1, pick)  # (A, k), best first
            flat = top_idx.gather(1, pick)
            beam = flat // V
            token = flat % V
            history = torch.cat([history.gather(1, beam.unsqueeze(-1).expand(A, k, t - 1)),
                                 token.unsqueeze(-1)], dim=2)

            # -- which sentences are done
            best_live = scores[:, 0]
            bound = best_live / lp(lim.to(scores.dtype))
            done = (lim <= t) | ~torch.isfinite(best_live) | (fin_score[alive.to(device), n - 1] >= bound)
            if finish_rule == "top_k":
                done |= fin_count[alive.to(device)] >= k
            keep = ~done
            if not bool(keep.any()):
                break
            rows = (torch.arange(A, device=device).unsqueeze(1) * k + beam)[keep].reshape(-1)
            state = model.reorder_state(state, rows)
            prev = token[keep].reshape(-1)
            scores, history = scores[keep], history[keep]
            alive = alive[keep.cpu()]

    out: list[list[Hypothesis]] = []
    fs, fl, fn, ft = fin_score.tolist(), fin_logp.tolist(), fin_len.tolist(), fin_tokens.tolist()
    for b in range(B):
        hyps = [
            Hypothesis(tuple(ft[b][j][: fn[b][j]]), fs[b][j], fl[b][j])
            for j in range(n)
            if math.isfinite(fs[b][j])
        ]
        out.append(hyps)
    return out


# ----------------------------------------------------------------------------- exhaustive
def exhaustive_search(
    model: Any,
    src: torch.Tensor,
    src_lengths: torch.Tensor,
    *,
    nbest: int = 1,
    length_penalty: float = 0.0,
    length_penalty_form: Literal["gnmt", "plain"] = "gnmt",
    max_len_a: float = 1.5,
    max_len_b: int = 10,
    max_len: int | None = None,
    max_hypotheses: int = 100_000,
) -> list[list[Hypothesis]]:
    """Score every output up to the length limit and return the best: the exact argmax.

    All sequences of allowed tokens (everything but PAD and BOS) that end with EOS and fit
    the limit of :func:`max_lengths` are scored (prefixes of probability zero are dropped).
    It exists to test :func:`beam_search` on tiny vocabularies; it refuses to enumerate more
    than ``max_hypotheses`` prefixes of one sentence.

    Returns, per sentence, the ``nbest`` best :class:`Hypothesis` ranked like beam search
    (ties: the shorter, then the lexicographically smaller, first).
    """
    check_source(src, src_lengths, "decode")
    check_int("nbest", nbest, 1, where="decode")
    _check_penalty(length_penalty, length_penalty_form)
    limits = max_lengths(src_lengths, max_len_a, max_len_b, max_len)
    out: list[list[Hypothesis]] = []
    with evaluating(model):
        for b in range(src.shape[0]):
            state = model.encode(src[b : b + 1], src_lengths[b : b + 1])
            prefixes: list[tuple[int, ...]] = [()]
            logps = None
            prev = torch.tensor([BOS], device=src.device)
            finished: list[Hypothesis] = []
            for t in range(1, int(limits[b]) + 1):
                log_probs, state = model.step(prev, state)
                log_probs = ban_tokens(log_probs)
                if logps is None:
                    logps = torch.zeros(1, dtype=log_probs.dtype, device=src.device)
                cand = logps.unsqueeze(1) + log_probs  # (P, V)
                for p, value in enumerate(cand[:, EOS].tolist()):
                    if math.isfinite(value):
                        score = value / _lp(float(t), length_penalty, length_penalty_form)
                        finished.append(Hypothesis(prefixes[p] + (EOS,), score, value))
                if t == int(limits[b]):
                    break
                cand[:, EOS] = NEG_INF
                rows, toks = torch.isfinite(cand).nonzero(as_tuple=True)
                if rows.numel() == 0:
                    break
                if rows.numel() > max_hypotheses:
                    raise ConfigError(
                        f"exhaustive_search: {rows.numel()} prefixes of length {t} exceed "
                        f"max_hypotheses={max_hypotheses}; use a smaller vocabulary or max_len"
                    )
                logps = cand[rows, toks]
                prefixes = [prefixes[r] + (v,) for r, v in zip(rows.tolist(), toks.tolist())]
                state = model.reorder_state(state, rows)
                prev = toks
            finished.sort(key=lambda h: (-h.score, len(h.tokens), h.tokens))
            out.append(finished[:nbest])
    return out


# ----------------------------------------------------------------------------- scoring
def score_sequences(
    model: Any, src: torch.Tensor, src_lengths: torch.Tensor, targets: Sequence[Sequence[int]]
) -> list[float]:
    """``log p(y | x)`` of given outputs (each ending in EOS, no BOS), one per sentence.

    Teacher-forced through ``step``, so it scores exactly what the searches score.
    """
    check_source(src, src_lengths, "decode")
    if len(targets) != src.shape[0]:
        raise DataError(f"score_sequences: {len(targets)} targets for {src.shape[0]} sources")
    out = []
    with evaluating(model):
        for b, target in enumerate(targets):
            if not target or target[-1] != EOS:
                raise DataError(f"score_sequences: target {b} must end with EOS, got {list(target)}")
            state = model.encode(src[b : b + 1], src_lengths[b : b + 1])
            prev = torch.tensor([BOS], device=src.device)
            total = 0.0
            for tok in target:
                log_probs, state = model.step(prev, state)
                total += float(log_probs[0, tok])
                prev = torch.tensor([tok], device=src.device)
            out.append(total)
    return out


def all_outputs(vocab: Sequence[int], max_len: int) -> Iterator[tuple[int, ...]]:
    """Every output over ``vocab`` (non-special ids) of at most ``max_len`` tokens with EOS."""
    for n in range(max_len):
        for prefix in itertools.product(vocab, repeat=n):
            yield tuple(prefix) + (EOS,)


__all__ = [
    "Hypothesis",
    "NEVER_GENERATED",
    "ban_tokens",
    "beam_search",
    "greedy_search",
    "exhaustive_search",
    "score_sequences",
    "length_penalty",
    "max_lengths",
    "evaluating",
    "all_outputs",
]
