"""Architecture diagrams drawn with matplotlib patches: the pictures the chapters explain.

- :func:`unrolled_rnn_diagram`: a vanilla RNN folded (one box with a loop) and unrolled over
  ``T`` steps, the same three matrices at every step (chapter 1);
- :func:`lstm_cell_diagram`: one LSTM step with its four gate blocks and the cell-state path,
  on which the old cell is only multiplied by ``f`` and added to (chapter 2);
- :func:`encoder_decoder_diagram`: the encoder-decoder of Sutskever et al. with the fixed
  vector between the two networks (chapter 3).

Every function takes an optional ``ax``, draws on it with equal aspect and no axis frame, sets
a title and returns the ``ax``. Each drawn label is an ``ax.texts`` entry, so a test can list
what a diagram shows.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch

from companion.errors import ConfigError

# colours of the three kinds of vectors (inputs, states, outputs) and of the gates
INPUT, STATE, OUTPUT, GATE, CELL = "#f4c7c3", "#c9e7c3", "#c6d9f1", "#fde9a9", "#e8d5f2"
EDGE = "#333333"


def _canvas(ax, size: tuple[float, float]):
    if ax is None:
        _, ax = plt.subplots(figsize=size)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


def _box(ax, center: tuple[float, float], text: str, *, width: float = 0.9, height: float = 0.6,
         color: str = STATE, fontsize: float = 10):
    """A rounded box centred at ``center`` with ``text`` in it; returns its (left, bottom,
    right, top) edges."""
    x, y = center
    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                boxstyle="round,pad=0.02,rounding_size=0.08", facecolor=color,
                                edgecolor=EDGE, linewidth=1.2, zorder=2))
    ax.text(x, y, text, ha="center", va="center", fontsize=fontsize, zorder=3)
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def _op(ax, center: tuple[float, float], symbol: str, radius: float = 0.2, color: str = "white"):
    """A small circle holding a point-wise operation (``×``, ``+``, ``tanh``)."""
    ax.add_patch(Circle(center, radius, facecolor=color, edgecolor=EDGE, linewidth=1.2, zorder=4))
    ax.text(*center, symbol, ha="center", va="center", fontsize=9 if len(symbol) > 1 else 12,
            zorder=5)


def _arrow(ax, start: tuple[float, float], end: tuple[float, float], *, label: str | None = None,
           label_offset: tuple[float, float] = (0.0, 0.0), color: str = EDGE, width: float = 1.2,
           connection: str = "arc3", fontsize: float = 9):
    ax.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12, color=color,
                                 linewidth=width, connectionstyle=connection, zorder=1,
                                 shrinkA=0, shrinkB=0))
    if label is not None:
        mx, my = (start[0] + end[0]) / 2 + label_offset[0], (start[1] + end[1]) / 2 + label_offset[1]
        ax.text(mx, my, label, ha="center", va="center", fontsize=fontsize, color=color, zorder=3,
                bbox=dict(boxstyle="round,pad=0.1", facecolor="white", edgecolor="none", alpha=0.85))


def _line(ax, points: Sequence[tuple[float, float]], *, color: str = EDGE, width: float = 1.2):
    xs, ys = zip(*points)
    ax.plot(xs, ys, color=color, linewidth=width, zorder=1, solid_capstyle="round")


def unrolled_rnn_diagram(ax=None, steps: int = 4):
    """A vanilla RNN folded (left: one cell whose state feeds back into itself) and unrolled
    over ``steps`` time steps (right): inputs ``x_t`` below, states ``h_t`` in the middle,
    outputs ``y_t`` above, and the matrices ``W_xh``, ``W_hh``, ``W_hy`` on the arrows -- the
    same three at every step. Returns ``ax``."""
    if not isinstance(steps, int) or isinstance(steps, bool) or not 1 <= steps <= 8:
        raise ConfigError(f"steps must be an int from 1 to 8, got {steps!r}")
    ax = _canvas(ax, (3.0 + 1.6 * steps, 3.8))
    # folded form
    _box(ax, (0, 0), "$x_t$", color=INPUT)
    _box(ax, (0, 1.5), "$h_t$")
    _box(ax, (0, 3), "$y_t$", color=OUTPUT)
    _arrow(ax, (0, 0.3), (0, 1.2), label="$W_{xh}$", label_offset=(-0.35, 0))
    _arrow(ax, (0, 1.8), (0, 2.7), label="$W_{hy}$", label_offset=(-0.35, 0))
    _line(ax, [(0.45, 1.5), (0.85, 1.5), (0.85, 2.2), (0.25, 2.2)])
    _arrow(ax, (0.25, 2.2), (0.25, 1.8))
    ax.text(0.95, 1.95, "$W_{hh}$", ha="left", va="center", fontsize=9)
    ax.text(1.9, 1.5, "=", ha="center", va="center", fontsize=18)
    # unrolled form
    x0, dx = 4.3, 1.6
    _box(ax, (x0 - dx, 1.5), "$h_0$", width=0.7, color="white")
    for t in range(1, steps + 1):
        x = x0 + (t - 1) * dx
        _box(ax, (x, 0), f"$x_{t}$", color=INPUT)
        _box(ax, (x, 1.5), f"$h_{t}$")
        _box(ax, (x, 3), f"$y_{t}$", color=OUTPUT)
        _arrow(ax, (x, 0.3), (x, 1.2), label="$W_{xh}$", label_offset=(0.3, 0))
        _arrow(ax, (x, 1.8), (x, 2.7), label="$W_{hy}$", label_offset=(0.3, 0))
        left = x - dx + (0.35 if t == 1 else 0.45)
        _arrow(ax, (left, 1.5), (x - 0.45, 1.5), label="$W_{hh}$", label_offset=(0, 0.22))
    ax.set_xlim(-0.8, x0 + (steps - 1) * dx + 0.7)
    ax.set_ylim(-0.5, 3.5)
    ax.set_title("a vanilla RNN, folded and unrolled: the same $W_{xh}, W_{hh}, W_{hy}$ at every step",
                 fontsize=10)
    return ax


def lstm_cell_diagram(ax=None):
    """One LSTM step. The cell state runs along the top, ``c_{t-1}`` to ``c_t``, meeting only a
    multiplication by the forget gate ``f`` and an addition of ``i * g``; the four gate blocks
    (``f``, ``i``, ``o`` sigmoids, ``g`` tanh) read ``h_{t-1}`` and ``x_t`` from below; ``h_t``
    leaves on the right as ``o * tanh(c_t)``. Returns ``ax``."""
    ax = _canvas(ax, (8, 4.6))
    ax.add_patch(FancyBboxPatch((0.3, -0.2), 7.2, 4.0, boxstyle="round,pad=0.05,rounding_size=0.2",
                                facecolor="#f7f7f7", edgecolor="#999999", linewidth=1.0, zorder=0))
    top = 3.2
    # the cell-state path
    _line(ax, [(-0.6, top), (7.9, top)], color="#7b3294", width=3.0)
    ax.text(-0.7, top, "$c_{t-1}$", ha="right", va="center", fontsize=11)
    ax.text(8.0, top, "$c_t$", ha="left", va="center", fontsize=11)
    ax.text(3.9, top + 0.45, "cell state: scaled by $f_t$, then added to (no matrix, no tanh)",
            ha="center", va="center", fontsize=9, color="#7b3294")
    times_f, plus = (1.6, top), (3.9, top)
    _op(ax, times_f, "×")
    _op(ax, plus, "+")
    # the gate blocks and the input bus
    bus = 0.25
    _line(ax, [(-0.6, bus), (6.4, bus)])
    ax.text(-0.7, bus, "$h_{t-1}$, $x_t$", ha="right", va="center", fontsize=11)
    gates = {"f": (1.6, "σ", "forget"), "i": (3.0, "σ", "input"), "g": (4.1, "tanh", "candidate"),
             "o": (5.6, "σ", "output")}
    for name, (x, fn, role) in gates.items():
        _line(ax, [(x, bus), (x, 0.85)])
        _box(ax, (x, 1.2), f"{fn}\n${name}_t$", width=0.8, height=0.7, color=GATE, fontsize=9)
        ax.text(x, 0.62, role, ha="center", va="center", fontsize=7, color="#555555",
                bbox=dict(boxstyle="round,pad=0.05", facecolor="#f7f7f7", edgecolor="none"))
    # f -> x on the cell path; i * g -> + on the cell path
    _arrow(ax, (1.6, 1.55), (1.6, top - 0.2))
    times_ig = (3.55, 2.2)
    _op(ax, times_ig, "×")
    _arrow(ax, (3.0, 1.55), (times_ig[0] - 0.16, times_ig[1] - 0.12))
    _arrow(ax, (4.1, 1.55), (times_ig[0] + 0.16, times_ig[1] - 0.12))
    _arrow(ax, (times_ig[0] + 0.08, times_ig[1] + 0.2), (plus[0] - 0.1, top - 0.18))
    # h_t = o * tanh(c_t)
    tanh_c, times_o = (6.6, 2.35), (6.6, 1.2)
    _line(ax, [(6.6, top), (6.6, tanh_c[1] + 0.3)])
    _op(ax, tanh_c, "tanh", radius=0.3)
    _arrow(ax, (6.6, tanh_c[1] - 0.3), (6.6, times_o[1] + 0.2))
    _op(ax, times_o, "×")
    _arrow(ax, (6.0, 1.2), (times_o[0] - 0.2, 1.2))
    _arrow(ax, (times_o[0] + 0.2, 1.2), (7.9, 1.2))
    ax.text(8.0, 1.2, "$h_t$", ha="left", va="center", fontsize=11)
    ax.set_xlim(-2.0, 8.6)
    ax.set_ylim(-0.4, 4.0)
    ax.set_title("one LSTM step: four gate blocks and the cell-state path", fontsize=10)
    return ax


def encoder_decoder_diagram(ax=None, src_tokens: Sequence[str] = ("A", "B", "C"),
                            tgt_tokens: Sequence[str] = ("W", "X", "Y", "Z"),
                            bos: str = "<BOS>", eos: str = "<EOS>"):
    """The encoder-decoder: the encoder reads ``src_tokens`` then ``eos``; its last state is the
    fixed vector ``v``, the decoder's initial state; the decoder reads ``bos`` and then each
    target token and predicts the next one, ending with ``eos``. Returns ``ax``."""
    src, tgt = list(src_tokens), list(tgt_tokens)
    if not src or not tgt:
        raise ConfigError("encoder_decoder_diagram needs at least one source and one target token")
    if len(src) > 8 or len(tgt) > 8:
        raise ConfigError(f"encoder_decoder_diagram draws at most 8 tokens a side, got "
                          f"{len(src)} source and {len(tgt)} target tokens")
    enc_in = src + [eos]
    dec_in, dec_out = [bos] + tgt, tgt + [eos]
    dx = 1.2
    n_enc, n_dec = len(enc_in), len(dec_in)
    vec_x = n_enc * dx + 0.3
    dec_x0 = vec_x + 1.5
    ax = _canvas(ax, (1.1 * (n_enc + n_dec) + 2.8, 3.8))
    for k, token in enumerate(enc_in):
        x = k * dx
        _box(ax, (x, 0), token, width=1.0, color=INPUT, fontsize=9)
        _box(ax, (x, 1.5), "", width=0.8)
        _arrow(ax, (x, 0.3), (x, 1.2))
        if k:
            _arrow(ax, (x - dx + 0.4, 1.5), (x - 0.4, 1.5))
    _box(ax, (vec_x, 1.5), "$v$", width=0.7, height=0.7, color=CELL, fontsize=12)
    _arrow(ax, ((n_enc - 1) * dx + 0.4, 1.5), (vec_x - 0.35, 1.5))
    ax.text(vec_x, 2.25, "fixed vector", ha="center", va="center", fontsize=9, color="#7b3294")
    for k, (token_in, token_out) in enumerate(zip(dec_in, dec_out)):
        x = dec_x0 + k * dx
        _box(ax, (x, 0), token_in, width=1.0, color=INPUT, fontsize=9)
        _box(ax, (x, 1.5), "", width=0.8, color=OUTPUT)
        _box(ax, (x, 3), token_out, width=1.0, color="white", fontsize=9)
        _arrow(ax, (x, 0.3), (x, 1.2))
        _arrow(ax, (x, 1.8), (x, 2.7))
        _arrow(ax, ((vec_x + 0.35) if k == 0 else (x - dx + 0.4), 1.5), (x - 0.4, 1.5))
    ax.text((n_enc - 1) * dx / 2, -0.75, "encoder (reads the source)", ha="center", fontsize=9)
    ax.text(dec_x0 + (n_dec - 1) * dx / 2, -0.75, "decoder (writes the target)", ha="center",
            fontsize=9)
    ax.set_xlim(-0.7, dec_x0 + (n_dec - 1) * dx + 0.7)
    ax.set_ylim(-1.1, 3.5)
    ax.set_title("encoder-decoder: the whole source passes through one fixed vector $v$", fontsize=10)
    return ax
