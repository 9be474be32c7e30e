"""Decoding as search: greedy, batched beam search, exhaustive search, ensembles.

A trained encoder-decoder defines ``p(y | x) = prod_t p(y_t | y_<t, x)``; translating means
searching for ``argmax_y p(y | x)`` (Sutskever et al. 2014, eq. 2). Every function here works on
any model with the three-method decoding interface::

    state = model.encode(src (B, S), src_lengths (B,))      # anything reorder_state can index
    log_probs (N, V), state = model.step(prev_tokens (N,), state)
    state = model.reorder_state(state, index (N',))         # select / repeat rows

so the LSTM encoder-decoder, RNNsearch and the Transformer share the same search code.

Conventions:

- hypotheses never contain BOS or PAD (both are banned at every step);
- the longest output of sentence ``i`` is ``min(max_len, floor(max_len_a * src_lengths[i] +
  max_len_b))`` tokens, EOS included (``src_lengths`` counts the source's EOS too). What
  happens at that limit is ``at_limit``, the same for greedy, beam and exhaustive search (so
  beam 1 stays greedy and a wide beam the exhaustive argmax):

  - ``"truncate"`` (the default): the limit cuts. A hypothesis ends with EOS unless the limit
    cut it; then it holds exactly that many tokens, none of them EOS, and is marked
    ``truncated`` -- the search never puts EOS in place of the token the model chose (the loop
    "stop at EOS or after ``max_len`` tokens" that a reader writes by hand, seed document 004's).
    At the last allowed step beam search's ``beam_size`` best extensions end the search: those
    ending in EOS as finished hypotheses, the others as truncated ones, ranked together;
  - ``"eos"``: only complete outputs. At the last allowed step only EOS may be chosen, so every
    hypothesis ends with EOS and the search space is every output of at most that many tokens
    ending with EOS (fairseq's convention; seed document 000 enumerates this space);
- scores are sums of log-probabilities, optionally divided by a length penalty ``lp(|Y|)``
  where ``|Y|`` counts the generated tokens, EOS included when there is one: GNMT's
  ``((5 + |Y|) / 6) ** alpha`` (Wu et al. 2016) or plain ``|Y| ** alpha`` (``alpha = 1`` is
  the average log-probability per token). ``alpha = 0`` scores by the raw log-probability.
- outputs are token ids; turning them into text is the vocabulary's job.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import torch

from companion.errors import ConfigError, DataError
from companion.models.contract import check_source
from companion.specials import BOS, EOS, NEVER_GENERATED, PAD, ban_tokens
from companion.validation import check_int

NEG_INF = float("-inf")


@dataclass(frozen=True)
class Hypothesis:
    """One output sentence.

    Attributes:
        tokens: generated ids (no BOS, no PAD), ending with EOS unless ``truncated``.
        score: the ranking score: ``log_prob / lp(len(tokens))`` (``log_prob`` when alpha = 0).
        log_prob: ``sum_t log p(y_t | y_<t, x)`` over ``tokens``.
        truncated: the length limit cut the hypothesis before the model chose EOS: ``tokens``
            holds the limit's number of tokens and no EOS.
        attention: ``(len(tokens), S)`` weights over the source's real tokens at each output
            step, when the search was asked for them (``return_attention=True``), else None.
    """

    tokens: tuple[int, ...]
    score: float
    log_prob: float
    truncated: bool = False
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


def _check_at_limit(at_limit: str) -> None:
    if at_limit not in ("truncate", "eos"):
        raise ConfigError(f"decode: at_limit must be 'truncate' or 'eos', got {at_limit!r}")


def _only_eos(scores: torch.Tensor, rows: torch.Tensor) -> None:
    """In place: ``-inf`` for every token but EOS in the rows ``rows`` (bool, ``scores``' leading
    dims) -- the last allowed step under ``at_limit="eos"``."""
    if bool(rows.any()):
        eos = scores[..., EOS].clone()
        scores.masked_fill_(rows.unsqueeze(-1), NEG_INF)
        scores[..., EOS] = eos


def _check_penalty(alpha: float, form: str) -> None:
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not math.isfinite(alpha) or alpha < 0:
        raise ConfigError(f"decode: length_penalty (alpha) must be a finite number >= 0, got {alpha!r}")
    length_penalty(1, alpha, form)  # validates the form


def max_lengths(
    src_lengths: torch.Tensor, max_len_a: float = 1.5, max_len_b: int = 10, max_len: int | None = None
) -> torch.Tensor:
    """The most tokens a hypothesis of each sentence may hold (EOS included when it ends with
    one): ``min(max_len, floor(a * |src| + b))``, >= 1.

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


def state_nbytes(state: Any) -> int:
    """Bytes held by the tensors of a decoder state (a tensor, a dataclass, or nested
    tuples/lists/dicts of them); a tensor met twice is counted once."""
    seen: set[int] = set()

    def walk(x: Any) -> int:
        if isinstance(x, torch.Tensor):
            if id(x) in seen:
                return 0
            seen.add(id(x))
            return x.numel() * x.element_size()
        if dataclasses.is_dataclass(x) and not isinstance(x, type):
            return sum(walk(getattr(x, f.name)) for f in dataclasses.fields(x))
        if isinstance(x, (tuple, list)):
            return sum(walk(v) for v in x)
        if isinstance(x, dict):
            return sum(walk(v) for v in x.values())
        return 0

    return walk(state)


def available_memory(device: torch.device | str) -> int | None:
    """Bytes that tensors on ``device`` can still take: free GPU memory plus what the CUDA
    allocator holds unused, or the host's ``MemAvailable``; None when it cannot be told."""
    device = torch.device(device)
    if device.type == "cuda":
        free, _ = torch.cuda.mem_get_info(device)
        return int(free + torch.cuda.memory_reserved(device) - torch.cuda.memory_allocated(device))
    if device.type != "cpu":
        return None
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _gib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB"


def check_search_memory(model: Any, state: Any, sentences: int, beam_size: int, max_steps: int,
                        device: torch.device | str) -> None:
    """Refuse (one-line :class:`ConfigError`) a beam search whose tensors cannot fit in memory.

    ``state`` is :meth:`encode`'s state for ``sentences`` sentences. The estimate counts, for
    each of the ``sentences * beam_size`` hypotheses, that state's share (as if every row held
    its own copy), ``3 + 3 M`` ``(V,)`` score rows of at least float32 for ``M`` models (each
    model's logits and log-probabilities and what the allocator keeps from the step before, the
    extended scores) and four copies of a token history of ``max_steps`` ids. On the CPU this matches the measured
    peak to about 10% (a small LSTM, beams of 100,000 to 400,000). A beam that cannot fit --
    ``--beam 200000`` over a batch -- is refused in one line before any search step runs,
    instead of ending in an allocator traceback.
    """
    members = _members(model)
    vocab = max((getattr(m, "tgt_vocab_size", 0) or 0) for m in members)
    per_state = state_nbytes(state) / max(sentences, 1)
    rows = sentences * beam_size
    need = rows * (per_state + (3 + 3 * len(members)) * vocab * 4 + 4 * max_steps * 8)
    have = available_memory(device)
    if have is not None and need > have:
        raise ConfigError(
            f"decode: a beam of {beam_size} over {sentences} sentence(s) needs about {_gib(need)} "
            f"({rows} hypotheses x {vocab} target tokens and their decoder states), but only "
            f"{_gib(have)} of {torch.device(device).type} memory is available; use a smaller beam "
            f"or batch size")


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


# ----------------------------------------------------------------------------- greedy
def greedy_search(
    model: Any,
    src: torch.Tensor,
    src_lengths: torch.Tensor,
    *,
    max_len_a: float = 1.5,
    max_len_b: int = 10,
    max_len: int | None = None,
    at_limit: Literal["truncate", "eos"] = "truncate",
    return_attention: bool = False,
) -> list[Hypothesis]:
    """Pick the most probable next token at every step, for a whole batch at once.

    ``src`` (B, S), ``src_lengths`` (B,) -> one :class:`Hypothesis` per sentence, in order. A
    sentence stops at EOS or after its limit's number of tokens (``at_limit="truncate"``: then
    ``truncated``; ``"eos"``: its last token is EOS, see the module docstring).
    With ``return_attention=True`` (a model with ``step_attention``, see
    :class:`~companion.models.contract.AttentionTranslator`) each hypothesis carries the
    attention weights of every step, ``(len(tokens), src_lengths[i])``.
    """
    check_source(src, src_lengths, "decode")
    if return_attention and not callable(getattr(model, "step_attention", None)):
        raise ConfigError(f"decode: {type(model).__name__} has no attention to return "
                          f"(it defines no step_attention)")
    _check_at_limit(at_limit)
    limits = max_lengths(src_lengths, max_len_a, max_len_b, max_len)
    limit_list, length_list = limits.tolist(), src_lengths.tolist()
    B = src.shape[0]
    device = src.device
    step_kw = {"need_attention": True} if return_attention else {}
    with evaluating(model):
        state = model.encode(src, src_lengths)
        prev = torch.full((B,), BOS, dtype=torch.long, device=device)
        tokens: list[list[int]] = [[] for _ in range(B)]
        weights: list[list[torch.Tensor]] = [[] for _ in range(B)]
        logp = [0.0] * B
        alive = list(range(B))  # original index of each row still decoding
        for t in range(1, int(limits.max()) + 1):
            log_probs, state = model.step(prev, state, **step_kw)
            attn = model.step_attention(state).float().cpu() if return_attention else None
            log_probs = ban_tokens(log_probs)
            if at_limit == "eos":
                _only_eos(log_probs, torch.tensor([limit_list[b] == t for b in alive], device=device))
            best_lp, best = log_probs.max(dim=-1)
            best_cpu, lp_cpu = best.tolist(), best_lp.tolist()
            keep = []
            for row, b in enumerate(alive):
                tokens[b].append(best_cpu[row])
                logp[b] += lp_cpu[row]
                if attn is not None:
                    weights[b].append(attn[row, : length_list[b]])
                if best_cpu[row] != EOS and t < limit_list[b]:
                    keep.append(row)
            if not keep:
                break
            if len(keep) < len(alive):
                rows = torch.tensor(keep, device=device)
                state = model.reorder_state(state, rows)
                alive = [alive[r] for r in keep]
                best = best.index_select(0, rows)
            prev = best
    return [Hypothesis(tuple(t), lp, lp, truncated=t[-1] != EOS,
                       attention=torch.stack(w) if return_attention else None)
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
    at_limit: Literal["truncate", "eos"] = "truncate",
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

    At a sentence's last allowed step (its length limit, :func:`max_lengths`) nothing stays
    live. With ``at_limit="truncate"`` EOS extensions finish by the rule above, and the live
    extensions that the rule would have kept (under ``"top_k"``: those among the ``beam_size``
    best extensions; under ``"every"``: the ``beam_size`` best not ending in EOS) end as
    *truncated* hypotheses (:attr:`Hypothesis.truncated`), without an EOS put in place of their
    last token -- as greedy search does, and as the exhaustive search enumerates. With
    ``at_limit="eos"`` only EOS may be chosen at that step, so every live hypothesis ends there
    with EOS.

    Finished and truncated hypotheses are ranked together by ``log_prob / lp(|Y|)``; the
    ``nbest`` best are kept. A sentence stops when no live hypothesis can still beat its
    ``nbest``-th finished one (an exact bound: log-probabilities only fall as a hypothesis
    grows, and ``lp`` grows with the length), when it reaches its length limit, or, under
    ``"top_k"``, once ``beam_size`` hypotheses have finished. Stopped sentences leave the
    batch, so long sentences do not slow down short ones. Before the search starts, the memory
    its scores and states will take is estimated (:func:`check_search_memory`); a beam that
    cannot fit is refused with a :class:`~companion.errors.ConfigError`.

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
        at_limit: ``"truncate"`` or ``"eos"``, see above and the module docstring.

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
    _check_at_limit(at_limit)
    limits = max_lengths(src_lengths, max_len_a, max_len_b, max_len)
    B, k, n = src.shape[0], beam_size, nbest
    device = src.device
    L = int(limits.max())

    def lp(lengths):
        return _lp(lengths, length_penalty, length_penalty_form)

    with evaluating(model):
        state = model.encode(src, src_lengths)
        check_search_memory(model, state, B, k, L, device)
        state = model.reorder_state(state, torch.arange(B, device=device).repeat_interleave(k))
        prev = torch.full((B * k,), BOS, dtype=torch.long, device=device)
        alive = torch.arange(B)  # original sentence index of each live sentence (CPU)
        scores: torch.Tensor | None = None  # (A, k) log-probabilities of the live hypotheses
        history = torch.zeros((B, k, 0), dtype=torch.long, device=device)  # (A, k, t-1)
        fin_score = fin_logp = None  # (B, n) each, created with the model's dtype
        fin_tokens = torch.full((B, n, L), PAD, dtype=torch.long, device=device)
        fin_len = torch.zeros((B, n), dtype=torch.long, device=device)
        fin_cut = torch.zeros((B, n), dtype=torch.bool, device=device)  # truncated at the limit
        fin_count = torch.zeros(B, dtype=torch.long, device=device)

        def keep_best(rows: torch.Tensor, new_logp: torch.Tensor, new_tokens: torch.Tensor, t: int,
                      cut: bool) -> None:
            """Merge ``new_logp`` ``(R, k)`` (-inf where nothing ends) of live sentences ``rows``
            ``(R,)``, all of length ``t``, into their ``nbest`` lists."""
            R = rows.numel()
            new_score = new_logp / lp(float(t))
            idx = alive.to(device)[rows]
            all_score = torch.cat([fin_score[idx], new_score], dim=1)  # (R, n + k)
            all_logp = torch.cat([fin_logp[idx], new_logp], dim=1)
            all_len = torch.cat([fin_len[idx], torch.full((R, k), t, device=device)], dim=1)
            all_cut = torch.cat([fin_cut[idx], torch.full((R, k), cut, device=device)], dim=1)
            all_tokens = torch.cat([fin_tokens[idx], new_tokens], dim=1)
            # stable sort: earlier (shorter) hypotheses win ties, and finished before truncated
            order = torch.sort(all_score, dim=1, descending=True, stable=True).indices[:, :n]
            fin_score[idx] = all_score.gather(1, order)
            fin_logp[idx] = all_logp.gather(1, order)
            fin_len[idx] = all_len.gather(1, order)
            fin_cut[idx] = all_cut.gather(1, order)
            fin_tokens[idx] = all_tokens.gather(1, order.unsqueeze(-1).expand(R, n, L))
            fin_count[idx] += torch.isfinite(new_logp).sum(dim=1)

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
            if at_limit == "eos":
                _only_eos(cand, (lim == t).view(A, 1).expand(A, k))
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
                new_tokens = torch.full((rows.numel(), k, L), PAD, dtype=torch.long, device=device)
                new_tokens[:, :, : t - 1] = history[rows]
                new_tokens[:, :, t - 1] = EOS
                keep_best(rows, eos_logp[rows].masked_fill(~take[rows], NEG_INF), new_tokens, t, cut=False)

            # -- hypotheses that stay live: the k best extensions not ending in EOS
            pick = torch.sort(top_eos.to(torch.int8), dim=1, stable=True).indices[:, :k]
            scores = top_val.gather(1, pick)  # (A, k), best first
            flat = top_idx.gather(1, pick)
            beam = flat // V
            token = flat % V
            history = torch.cat([history.gather(1, beam.unsqueeze(-1).expand(A, k, t - 1)),
                                 token.unsqueeze(-1)], dim=2)

            # -- at the length limit, what would stay live ends here, truncated
            rows = (lim == t).nonzero().squeeze(1) if at_limit == "truncate" else None
            if rows is not None and rows.numel() > 0:
                cut = torch.isfinite(scores[rows])
                if finish_rule == "top_k":
                    cut &= pick[rows] < k  # among the k best extensions
                new_tokens = torch.full((rows.numel(), k, L), PAD, dtype=torch.long, device=device)
                new_tokens[:, :, :t] = history[rows]
                keep_best(rows, scores[rows].masked_fill(~cut, NEG_INF), new_tokens, t, cut=True)

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
    fc = fin_cut.tolist()
    for b in range(B):
        hyps = [
            Hypothesis(tuple(ft[b][j][: fn[b][j]]), fs[b][j], fl[b][j], truncated=fc[b][j])
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
    at_limit: Literal["truncate", "eos"] = "truncate",
    max_hypotheses: int = 100_000,
) -> list[list[Hypothesis]]:
    """Score every output up to the length limit and return the best: the exact argmax.

    All sequences of allowed tokens (everything but PAD and BOS) that end with EOS and fit
    the limit of :func:`max_lengths` are scored, and with ``at_limit="truncate"`` all sequences
    of exactly the limit's length without EOS too (truncated, see :attr:`Hypothesis.truncated`;
    then the probabilities of all outputs sum to 1); prefixes of probability zero are dropped.
    It exists to test :func:`beam_search` on tiny vocabularies; it refuses to enumerate more
    than ``max_hypotheses`` prefixes of one sentence.

    Returns, per sentence, the ``nbest`` best :class:`Hypothesis` ranked like beam search
    (ties: the shorter, then the lexicographically smaller, first).
    """
    check_source(src, src_lengths, "decode")
    check_int("nbest", nbest, 1, where="decode")
    _check_penalty(length_penalty, length_penalty_form)
    _check_at_limit(at_limit)
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
                if t == int(limits[b]) and at_limit == "eos":
                    break
                cand[:, EOS] = NEG_INF
                rows, toks = torch.isfinite(cand).nonzero(as_tuple=True)
                if rows.numel() > max_hypotheses:
                    raise ConfigError(
                        f"exhaustive_search: {rows.numel()} prefixes of length {t} exceed "
                        f"max_hypotheses={max_hypotheses}; use a smaller vocabulary or max_len"
                    )
                if t == int(limits[b]):  # the limit cuts every other continuation
                    penalty = _lp(float(t), length_penalty, length_penalty_form)
                    for r, v, value in zip(rows.tolist(), toks.tolist(), cand[rows, toks].tolist()):
                        finished.append(Hypothesis(prefixes[r] + (v,), value / penalty, value, truncated=True))
                    break
                if rows.numel() == 0:
                    break
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
    """``log p(y | x)`` of given outputs (no BOS; EOS, if any, last), one per sentence; an
    output without EOS is scored as a prefix, like a truncated hypothesis.

    Teacher-forced through ``step``, so it scores exactly what the searches score.
    """
    check_source(src, src_lengths, "decode")
    if len(targets) != src.shape[0]:
        raise DataError(f"score_sequences: {len(targets)} targets for {src.shape[0]} sources")
    out = []
    with evaluating(model):
        for b, target in enumerate(targets):
            if not target or EOS in list(target)[:-1]:
                raise DataError(f"score_sequences: target {b} must be non-empty with EOS only at its end, "
                                f"got {list(target)}")
            state = model.encode(src[b : b + 1], src_lengths[b : b + 1])
            prev = torch.tensor([BOS], device=src.device)
            total = 0.0
            for tok in target:
                log_probs, state = model.step(prev, state)
                total += float(log_probs[0, tok])
                prev = torch.tensor([tok], device=src.device)
            out.append(total)
    return out


def all_outputs(vocab: Sequence[int], max_len: int, truncated: bool = False) -> Iterator[tuple[int, ...]]:
    """Every output over ``vocab`` (non-special ids) of at most ``max_len`` tokens with EOS,
    and with ``truncated`` also every one of ``max_len`` tokens without EOS."""
    for n in range(max_len):
        for prefix in itertools.product(vocab, repeat=n):
            yield tuple(prefix) + (EOS,)
    if truncated:
        yield from itertools.product(vocab, repeat=max_len)


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
    "available_memory",
    "check_search_memory",
    "state_nbytes",
]
