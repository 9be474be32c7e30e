"""Small builders shared by the model tests."""

from __future__ import annotations

import ast
from pathlib import Path

import torch

from companion.specials import EOS


def random_pairs(seed: int = 1, n: int = 4, src_vocab: int = 13, tgt_vocab: int = 11):
    """``n`` (source ids + EOS, target ids) pairs of varied lengths over ids ``4..V-1``."""
    g = torch.Generator().manual_seed(seed)
    out = []
    for i in range(n):
        s = torch.randint(4, src_vocab, (2 + (3 * i) % 7,), generator=g).tolist() + [EOS]
        t = torch.randint(4, tgt_vocab, (1 + (2 * i + 1) % 6,), generator=g).tolist()
        out.append((s, t))
    return out


def defined_objects(path: Path) -> set[str]:
    """Every class and function defined in the module at ``path`` (at any depth), and
    ``Class.method`` for the methods of each class: the names a ``:pyobject:`` can point at."""
    names = set()
    for node in ast.walk(ast.parse(Path(path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            names.add(node.name)
            names.update(f"{node.name}.{n.name}" for n in node.body
                         if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
    return names
