"""Character-level language models over the fused torch recurrent modules.

:class:`CharLM` is ``embedding -> num_layers x (RNN | LSTM | GRU) -> linear``; it follows the
package's model interface ``logits = model(batch)`` ``(B, T, V)`` over ``batch.tgt_in`` so the
:class:`companion.training.Trainer` trains it. The recurrent part is ``torch.nn.RNN``,
``torch.nn.LSTM`` or ``torch.nn.GRU`` (cuDNN on a GPU); the readable cells of
:mod:`companion.models.rnn` and :mod:`companion.models.lstm` compute the same functions and are
checked against these modules in the tests.

:func:`sample` draws text from a trained model, :func:`hidden_size_for_budget` picks the hidden
size that gives each cell type the same number of parameters.
"""

from __future__ import annotations

from typing import Any, ClassVar

import torch
from torch import nn

from companion.errors import ConfigError
from companion.models.contract import refuse_packed, reorder_tensors
from companion.specials import SPECIAL_TOKENS, ban_tokens
from companion.validation import check_dropout, check_float, check_int

CELLS = {"rnn": 1, "gru": 3, "lstm": 4}  # cell type -> number of gate blocks in the weights


class CharLM(nn.Module):
    """``embedding (V, E) -> num_layers`` recurrent layers of width ``H`` ``-> linear (V, H)``.

    Args:
        vocab_size: ``V``, including the four special ids.
        embed_dim: ``E``.
        hidden_size: ``H``.
        num_layers: stacked layers (layer ``l`` reads layer ``l-1``'s hidden states).
        cell: ``"rnn"`` (tanh), ``"lstm"`` or ``"gru"``.
        dropout: applied to the embeddings, between layers and before the read-out.
        forget_bias: added to the LSTM forget-gate bias at initialisation (Gers et al. 2000);
            ignored for the other cells.

    ``forward(batch) -> logits (B, T, V)`` reads ``batch.tgt_in`` ``(B, T)``;
    ``forward_ids(ids (B, T), state) -> (logits (B, T, V), state)`` carries the recurrent
    state, ``(h, c)`` with each ``(L, B, H)`` for the LSTM, ``h`` ``(L, B, H)`` otherwise.
    :meth:`initial_state`, :meth:`step` and :meth:`reorder_state` make it a
    :class:`~companion.models.contract.LanguageModel`.
    """

    example_args: ClassVar[dict[str, Any]] = {"embed_dim": 8, "hidden_size": 12, "num_layers": 2}

    def __init__(self, vocab_size: int, embed_dim: int, hidden_size: int, num_layers: int = 1,
                 cell: str = "lstm", dropout: float = 0.0, forget_bias: float = 0.0):
        super().__init__()
        for name, value in (("vocab_size", vocab_size), ("embed_dim", embed_dim),
                            ("hidden_size", hidden_size), ("num_layers", num_layers)):
            check_int(name, value, 1, where="CharLM")
        if cell not in CELLS:
            raise ConfigError(f"cell must be one of {sorted(CELLS)}, got {cell!r}")
        check_dropout("dropout", dropout, where="CharLM")
        self.vocab_size, self.cell_type = vocab_size, cell
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        module = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[cell]
        self.rnn = module(embed_dim, hidden_size, num_layers=num_layers, batch_first=True,
                          dropout=dropout if num_layers > 1 else 0.0)
        self.dropout = nn.Dropout(dropout)
        self.output = nn.Linear(hidden_size, vocab_size)
        if cell == "lstm" and forget_bias:
            H = hidden_size
            with torch.no_grad():
                for layer in range(num_layers):
                    getattr(self.rnn, f"bias_ih_l{layer}")[H:2 * H] += forget_bias

    def forward_ids(self, ids: torch.Tensor, state=None):
        if ids.dim() != 2:
            raise ConfigError(f"CharLM expects ids of shape (B, T), got {tuple(ids.shape)}")
        h, state = self.rnn(self.dropout(self.embedding(ids)), state)
        return self.output(self.dropout(h)), state

    def forward(self, batch) -> torch.Tensor:
        """Logits ``(B, T, V)`` of the next character at every position of ``batch.tgt_in`` ``(B, T)``."""
        refuse_packed(batch, "CharLM.forward")
        return self.forward_ids(batch.tgt_in)[0]

    def initial_state(self, batch_size: int, device: torch.device | str | None = None):
        """Zero state for ``batch_size`` sequences (what ``forward_ids(ids, None)`` starts from)."""
        p = self.output.weight
        h = torch.zeros(self.rnn.num_layers, batch_size, self.rnn.hidden_size,
                        dtype=p.dtype, device=device if device is not None else p.device)
        return (h, h.clone()) if self.cell_type == "lstm" else h

    def step(self, prev_tokens: torch.Tensor, state):
        """One character: ``prev_tokens`` (N,) -> ``log_probs`` (N, V) and the new state."""
        logits, state = self.forward_ids(prev_tokens.unsqueeze(1), state)
        logits = logits[:, 0]
        if logits.dtype in (torch.float16, torch.bfloat16):  # search in at least float32
            logits = logits.float()
        return torch.log_softmax(logits, dim=-1), state

    @staticmethod
    def reorder_state(state, index: torch.Tensor):
        """Rows ``index`` (N',) of the state (the batch is dimension 1 of ``(L, N, H)``)."""
        return reorder_tensors(state, index, dim=1)


def num_parameters(model: nn.Module) -> int:
    """Number of trainable scalars in ``model``."""
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def charlm_parameters(vocab_size: int, embed_dim: int, hidden_size: int, num_layers: int,
                      cell: str) -> int:
    """Parameter count of ``CharLM(...)`` computed from the shapes, without building it."""
    if cell not in CELLS:
        raise ConfigError(f"cell must be one of {sorted(CELLS)}, got {cell!r}")
    gates, H = CELLS[cell], hidden_size
    recurrent = sum(gates * (H * (embed_dim if l == 0 else H) + H * H + 2 * H)
                    for l in range(num_layers))
    return vocab_size * embed_dim + recurrent + H * vocab_size + vocab_size


def hidden_size_for_budget(budget: int, vocab_size: int, embed_dim: int, num_layers: int,
                           cell: str) -> int:
    """The hidden size whose :class:`CharLM` parameter count is closest to ``budget``."""
    check_int("budget", budget, 1, where="hidden_size_for_budget")
    best, best_gap = 1, None
    H = 1
    while True:
        n = charlm_parameters(vocab_size, embed_dim, H, num_layers, cell)
        gap = abs(n - budget)
        if best_gap is None or gap < best_gap:
            best, best_gap = H, gap
        if n > budget:
            return best
        H += 1


@torch.no_grad()
def sample(model: CharLM, vocab, prompt: str, n_chars: int, temperature: float = 1.0,
           generator: torch.Generator | None = None) -> str:
    """Continue ``prompt`` by ``n_chars`` characters drawn from ``model``.

    Each next character is drawn from ``softmax(logits / temperature)`` over the real
    characters (the special ids are never drawn); ``temperature=0`` takes the arg-max. The
    same ``generator`` state gives the same text. Returns the prompt followed by the sample.
    """

    if not prompt:
        raise ConfigError("sample needs a non-empty prompt")
    check_int("n_chars", n_chars, 0, where="sample")
    check_float("temperature", temperature, 0.0, where="sample")
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    ids = torch.tensor([vocab.encode(prompt)], dtype=torch.long, device=device)
    logits, state = model.forward_ids(ids)
    out = []
    for _ in range(n_chars):
        last = ban_tokens(logits[0, -1].float(), range(len(SPECIAL_TOKENS)))
        if temperature == 0:
            nxt = int(last.argmax())
        else:
            probs = torch.softmax(last / temperature, dim=-1).cpu()
            nxt = int(torch.multinomial(probs, 1, generator=generator))
        out.append(nxt)
        logits, state = model.forward_ids(torch.tensor([[nxt]], device=device), state)
    model.train(was_training)
    return prompt + vocab.decode(out)
