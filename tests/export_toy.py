"""A toy translation task and small models trained on it for a few dozen steps, shared by the
export tests (``test_export_onnx.py``, ``test_export_ct2.py``).

The task: a sentence of 2-7 Korean words is translated word by word into English, in reverse
order. Trained briefly, a model gets some of it right and some wrong, so its greedy outputs
vary from sentence to sentence (an untrained model tends to repeat one token) while staying
deterministic for a fixed seed.
"""

from __future__ import annotations

import random

import torch

KO = ["고양이", "물", "마신다", "사과", "먹는다", "학교", "간다", "책", "읽는다", "친구", "본다", "빨리", "오늘",
      "집", "에서", "어제", "아이", "노래", "부른다", "천천히"]
EN = ["cat", "water", "drinks", "apple", "eats", "school", "goes", "book", "reads", "friend", "sees", "quickly",
      "today", "home", "at", "yesterday", "child", "song", "sings", "slowly"]


def toy_pairs(n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` (Korean, English) pairs of the toy task."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        idx = [rng.randrange(len(KO)) for _ in range(rng.randint(2, 7))]
        out.append((" ".join(KO[i] for i in idx), " ".join(EN[i] for i in reversed(idx))))
    return out


def toy_vocabs():
    """Source and target SentencePiece vocabularies of the toy task (48 pieces each at most)."""
    from companion.data.vocab import train_vocabs

    return train_vocabs(toy_pairs(400, seed=0), 48, 48, hard_vocab_limit=False)


def trained(model: torch.nn.Module, vocabs, steps: int = 60, seed: int = 0) -> torch.nn.Module:
    """``model`` trained ``steps`` Adam steps on batches of 32 toy pairs, returned in eval mode."""
    from companion.data.batching import collate, encode_pairs
    from companion.training.trainer import sequence_loss

    torch.manual_seed(seed)
    examples = encode_pairs(toy_pairs(32 * steps, seed=seed + 1), *vocabs)
    opt = torch.optim.Adam(model.parameters(), 3e-3)
    model.train()
    for step in range(steps):
        batch = collate(examples[32 * step : 32 * (step + 1)])
        loss = sequence_loss(model(batch), batch.tgt_out)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model.eval()


def toy_transformer(vocabs, pre_ln: bool = False, steps: int = 60, seed: int = 0):
    """A small Transformer (d_model 32, 4 heads, 2 + 2 layers) trained on the toy task."""
    from companion.models.transformer import Transformer

    torch.manual_seed(seed)
    model = Transformer(len(vocabs[0]), len(vocabs[1]), d_model=32, num_heads=4, num_encoder_layers=2,
                        num_decoder_layers=2, d_ff=64, dropout=0.0, pre_ln=pre_ln)
    return trained(model, vocabs, steps, seed)


def toy_rnnsearch(vocabs, steps: int = 60, seed: int = 0):
    """A small RNNsearch trained on the toy task."""
    from companion.models.attention import RNNSearch

    torch.manual_seed(seed)
    model = RNNSearch(len(vocabs[0]), len(vocabs[1]), embed_dim=16, hidden_size=24, attention_dim=16, maxout_dim=12)
    return trained(model, vocabs, steps, seed)
