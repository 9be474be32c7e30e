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
    "stop at EOS or after ``max_len`` tokens" that a reader writes by hand).
    At the last allowed step beam search's ``beam_size`` best extensions end the search: those
    ending in EOS as finished hypotheses, the others as truncated ones, ranked together;
  - ``"eos"``: only complete outputs. At the last allowed step only EOS may be chosen, so every
    hypothesis ends with EOS and the search space is every output of at most that many tokens
    ending with EOS (fairseq's convention; :func:`exhaustive_search` enumerates this space);
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
@dataclass
class BeamStep:
    """What one step of beam search decides for ``A`` sentences of ``k`` live hypotheses each.

    Attributes:
        finished: ``(A, k)`` log-probability of the EOS extension of each live hypothesis that
            finishes at this step; ``-inf`` where none does.
        scores: ``(A, k)`` log-probabilities of the ``k`` extensions that stay live, best first.
        beam: ``(A, k)`` which live hypothesis each of them extends (its row in ``0..k-1``).
        token: ``(A, k)`` the token each of them appends (never EOS, BOS or PAD).
        in_top_k: ``(A, k)`` whether each of them ranks among the ``k`` best extensions of the
            step, EOS extensions included (what ``finish_rule="top_k"`` keeps at the length limit).
    """

    finished: torch.Tensor
    scores: torch.Tensor
    beam: torch.Tensor
    token: torch.Tensor
    in_top_k: torch.Tensor


def beam_step(scores: torch.Tensor, log_probs: torch.Tensor, *,
              finish_rule: Literal["top_k", "every"] = "top_k",
              only_eos: torch.Tensor | None = None) -> BeamStep:
    """One step of beam search: extend, finish, select.

    ``scores`` ``(A, k)`` are the log-probabilities of the live hypotheses (``-inf`` in an empty
    slot), ``log_probs`` ``(A * k, V)`` the model's next-token log-probabilities after each of
    them. Every hypothesis is extended by every token; an extension's score is its parent's plus
    the token's log-probability. EOS extensions finish (all of them under ``"every"``; under
    ``"top_k"`` those among the sentence's ``k`` best extensions) and the ``k`` best extensions
    that do not end in EOS stay live. ``only_eos`` ``(A,)`` marks sentences at their last
    allowed step under ``at_limit="eos"``: there only EOS may be chosen.
    """
    A, k = scores.shape
    V = log_probs.shape[-1]
    # extend every hypothesis by every token: (A, k, V) log-probabilities, BOS and PAD banned
    cand = ban_tokens(scores.unsqueeze(-1) + log_probs.view(A, k, V), inplace=True)
    if only_eos is not None:
        _only_eos(cand, only_eos.view(A, 1).expand(A, k))
    eos_logp = cand[:, :, EOS]  # (A, k)
    # the 2k best extensions of each sentence hold at least k that do not end in EOS (one EOS per beam)
    top_val, top_idx = cand.view(A, k * V).topk(min(2 * k, k * V), dim=1)
    top_eos = (top_idx % V) == EOS

    # which EOS extensions finish
    if finish_rule == "every":
        take = torch.isfinite(eos_logp)
    else:  # those among the k best extensions
        hit = (top_eos[:, :k] & torch.isfinite(top_val[:, :k])).to(torch.int64)
        take = torch.zeros((A, k), dtype=torch.int64, device=scores.device)
        take = take.scatter_add_(1, top_idx[:, :k] // V, hit) > 0

    # the k best extensions that do not end in EOS stay live (a stable sort keeps them in order)
    pick = torch.sort(top_eos.to(torch.int8), dim=1, stable=True).indices[:, :k]
    flat = top_idx.gather(1, pick)
    return BeamStep(finished=eos_logp.masked_fill(~take, NEG_INF), scores=top_val.gather(1, pick),
                    beam=flat // V, token=flat % V, in_top_k=pick < k)


class FinishedHypotheses:
    """The ``nbest`` best finished (or truncated) hypotheses of each of ``B`` sentences, ranked
    by ``log_prob / lp(|Y|)``: scores, log-probabilities, lengths and truncation flags ``(B, n)``,
    tokens ``(B, n, L)`` padded with PAD, and how many hypotheses each sentence has finished."""

    def __init__(self, B: int, n: int, L: int, penalty, dtype: torch.dtype, device: torch.device) -> None:
        self.n, self.L, self.penalty, self.device = n, L, penalty, device
        self.score = torch.full((B, n), NEG_INF, dtype=dtype, device=device)
        self.logp = torch.full((B, n), NEG_INF, dtype=dtype, device=device)
        self.length = torch.zeros((B, n), dtype=torch.long, device=device)
        self.truncated = torch.zeros((B, n), dtype=torch.bool, device=device)
        self.tokens = torch.full((B, n, L), PAD, dtype=torch.long, device=device)
        self.count = torch.zeros(B, dtype=torch.long, device=device)

    def add(self, sentences: torch.Tensor, logp: torch.Tensor, tokens: torch.Tensor, length: int,
            truncated: bool) -> None:
        """Merge ``logp`` ``(R, k)`` (``-inf`` where nothing ends) and ``tokens`` ``(R, k, L)``
        of hypotheses of ``length`` tokens into the lists of ``sentences`` ``(R,)``."""
        R, k, n = sentences.numel(), logp.shape[1], self.n
        new_score = logp / self.penalty(float(length))  # the length penalty ranks finished hypotheses
        fields = {"score": new_score, "logp": logp,
                  "length": torch.full((R, k), length, device=self.device),
                  "truncated": torch.full((R, k), truncated, device=self.device), "tokens": tokens}
        merged = {name: torch.cat([getattr(self, name)[sentences], new], dim=1) for name, new in fields.items()}
        # stable sort: earlier (shorter) hypotheses win ties, and finished before truncated
        order = torch.sort(merged["score"], dim=1, descending=True, stable=True).indices[:, :n]
        for name in ("score", "logp", "length", "truncated"):
            getattr(self, name)[sentences] = merged[name].gather(1, order)
        self.tokens[sentences] = merged["tokens"].gather(1, order.unsqueeze(-1).expand(R, n, self.L))
        self.count[sentences] += torch.isfinite(logp).sum(dim=1)

    def hypotheses(self) -> list[list[Hypothesis]]:
        """Per sentence, its finished :class:`Hypothesis` list, best first."""
        fs, fl, fn = self.score.tolist(), self.logp.tolist(), self.length.tolist()
        ft, fc = self.tokens.tolist(), self.truncated.tolist()
        return [[Hypothesis(tuple(ft[b][j][: fn[b][j]]), fs[b][j], fl[b][j], truncated=fc[b][j])
                 for j in range(self.n) if math.isfinite(fs[b][j])] for b in range(len(fs))]


def _padded(history: torch.Tensor, L: int, last: int | None = None) -> torch.Tensor:
    """Token histories ``(R, k, t)`` padded to ``(R, k, L)`` with PAD, ``last`` appended first."""
    R, k, t = history.shape
    out = torch.full((R, k, L), PAD, dtype=torch.long, device=history.device)
    out[:, :, :t] = history
    if last is not None:
        out[:, :, t] = last
    return out


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
      hand-set toy's published numbers, chapter 3).

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
        history = torch.zeros((B, k, 0), dtype=torch.long, device=device)  # (A, k, t-1) their tokens
        finished: FinishedHypotheses | None = None

        for t in range(1, L + 1):
            log_probs, state = model.step(prev, state)
            A, V = alive.numel(), log_probs.shape[-1]
            if V < 4 + 1:
                raise ConfigError(f"decode: the model's vocabulary ({V}) has no token besides the specials")
            if scores is None:  # one live hypothesis per sentence, the empty one
                scores = torch.full((B, k), NEG_INF, dtype=log_probs.dtype, device=device)
                scores[:, 0] = 0.0
                finished = FinishedHypotheses(B, n, L, lp, log_probs.dtype, device)
            sentences = alive.to(device)
            lim = limits[alive].to(device)  # (A,)
            step = beam_step(scores, log_probs, finish_rule=finish_rule,
                             only_eos=(lim == t) if at_limit == "eos" else None)

            # -- hypotheses that end here with EOS
            rows = torch.isfinite(step.finished).any(dim=1).nonzero().squeeze(1)
            if rows.numel() > 0:
                finished.add(sentences[rows], step.finished[rows], _padded(history[rows], L, last=EOS), t,
                             truncated=False)

            # -- the live hypotheses and their tokens
            scores = step.scores
            history = torch.cat([history.gather(1, step.beam.unsqueeze(-1).expand(A, k, t - 1)),
                                 step.token.unsqueeze(-1)], dim=2)

            # -- at the length limit, what would stay live ends here, truncated
            rows = (lim == t).nonzero().squeeze(1) if at_limit == "truncate" else None
            if rows is not None and rows.numel() > 0:
                cut = torch.isfinite(scores[rows])
                if finish_rule == "top_k":
                    cut &= step.in_top_k[rows]
                finished.add(sentences[rows], scores[rows].masked_fill(~cut, NEG_INF), _padded(history[rows], L), t,
                             truncated=True)

            # -- which sentences are done: no live hypothesis can beat the nbest-th finished one
            best_live = scores[:, 0]
            bound = best_live / lp(lim.to(scores.dtype))
            done = (lim <= t) | ~torch.isfinite(best_live) | (finished.score[sentences, n - 1] >= bound)
            if finish_rule == "top_k":
                done |= finished.count[sentences] >= k
            keep = ~done
            if not bool(keep.any()):
                break
            rows = (torch.arange(A, device=device).unsqueeze(1) * k + step.beam)[keep].reshape(-1)
            state = model.reorder_state(state, rows)
            prev = step.token[keep].reshape(-1)
            scores, history = scores[keep], history[keep]
            alive = alive[keep.cpu()]

    return finished.hypotheses()


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
    "beam_step",
    "BeamStep",
    "FinishedHypotheses",
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
