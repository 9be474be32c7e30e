"""Benchmark: RNNsearch training and decoding speed, as ratios measured in the same run.

1. Training throughput: the same length-bucketed batches of the generated corpus (level
   ``small``) go through :class:`~companion.models.attention.RNNSearch` and through a one-layer
   :class:`~companion.models.seq2seq.Seq2Seq` of the same embedding and hidden size, alternating
   batch by batch (so both see the same load from other processes); forward, backward and an
   Adam step per batch, on one thread, timed with CPU time. RNNsearch's decoder loops over target
   positions in Python (its attention needs ``s_{i-1}``) where the LSTM runs as one fused call,
   so the ratio is below 1; it says how much below.
2. Decoding: beam search (k = 5) over the test sentences in length-sorted batches of 64
   (:func:`~companion.decoding.corpus.decode_corpus`, what ``companion translate`` does) against
   one sentence at a time, with the RNNsearch trained in part 1; the outputs must be identical.
   The batched search also runs as before issue 21
   (:class:`~companion.models.contract.EveryRowReorder`): every hypothesis' copy of the
   annotations and their keys index-selected at every step, where the state now keeps them once
   per sentence. ``attention_beam_{before,after}_sentences_per_s`` are the best of ``--repeat``
   alternating runs, ``attention_beam_speedup_over_before`` their ratio; identical outputs.
3. The score's ``tanh`` against ``2 sigmoid(2x) - 1`` on the energies of one step: why
   :meth:`BahdanauAttention.score` computes it through the sigmoid.

Prints ``key=value`` lines::

    .venv/bin/python bench/attention.py            # about 1-2 minutes on one core
    .venv/bin/python bench/attention.py --steps 20 # quicker
"""

from __future__ import annotations

import argparse
import itertools
import time

import torch

from companion.data.batching import encode_pairs, make_loader, source_ids
from companion.data.kosynth import generate_pairs
from companion.data.vocab import train_vocabs
from companion.decoding.corpus import decode_corpus
from companion.decoding.search import beam_search
from companion.models.attention import RNNSearch
from companion.models.contract import EveryRowReorder
from companion.models.seq2seq import Seq2Seq
from companion.repro import set_determinism
from companion.specials import PAD
from companion.training.trainer import sequence_loss


def train_step(model, optimizer, batch) -> float:
    """One forward/backward/Adam step; returns its CPU seconds."""
    t0 = time.process_time()
    loss = sequence_loss(model(batch), batch.tgt_out) / batch.ntokens
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return time.process_time() - t0


def padded(sources):
    lengths = torch.tensor([len(s) for s in sources])
    src = torch.full((len(sources), int(lengths.max())), PAD, dtype=torch.long)
    for i, s in enumerate(sources):
        src[i, : len(s)] = torch.tensor(s)
    return src, lengths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=40, help="training steps per model")
    parser.add_argument("--sentences", type=int, default=128, help="sentences to beam-decode")
    parser.add_argument("--hidden", type=int, default=128, help="hidden (and embedding) size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="alternating beam runs before/after (best of)")
    args = parser.parse_args()
    set_determinism(args.seed, threads=1)

    pairs = [(p.ko, p.en) for p in generate_pairs(3000 + args.sentences, args.seed, level="small")]
    train, test = pairs[:3000], pairs[3000:]
    src_vocab, tgt_vocab = train_vocabs(train, 1000, 1000, seed=args.seed, hard_vocab_limit=False)
    examples = encode_pairs(train, src_vocab, tgt_vocab, max_len=60)
    loader = make_loader(examples, max_tokens=1500, shuffle=True, seed=args.seed)
    batches = list(itertools.islice(itertools.cycle(loader), args.steps))
    H = args.hidden
    torch.manual_seed(args.seed)
    search = RNNSearch(len(src_vocab), len(tgt_vocab), embed_dim=H, hidden_size=H, attention_dim=H)
    s2s = Seq2Seq(len(src_vocab), len(tgt_vocab), embed_dim=H, hidden_size=H, num_layers=1)
    opt_search = torch.optim.Adam(search.parameters(), lr=2e-3)
    opt_s2s = torch.optim.Adam(s2s.parameters(), lr=2e-3)
    train_step(search, opt_search, batches[0])  # warm-up (allocator, first-call costs)
    train_step(s2s, opt_s2s, batches[0])
    t_search = t_s2s = 0.0
    tokens = 0
    for batch in batches:
        t_search += train_step(search, opt_search, batch)
        t_s2s += train_step(s2s, opt_s2s, batch)
        tokens += int(batch.ntokens)
    print(f"train_batches={len(batches)}")
    print(f"train_tokens={tokens}")
    print(f"rnnsearch_parameters={search.num_parameters()}")
    print(f"seq2seq_parameters={sum(p.numel() for p in s2s.parameters())}")
    print(f"rnnsearch_train_tokens_per_s={tokens / t_search:.0f}")
    print(f"seq2seq_train_tokens_per_s={tokens / t_s2s:.0f}")
    print(f"rnnsearch_vs_seq2seq_train_tokens_ratio={t_s2s / t_search:.2f}")

    # -- decoding: batched beam against one sentence at a time
    sources = [source_ids(src_vocab, ko) for ko, _ in test]
    options = dict(beam_size=5, max_len_a=1.5, max_len_b=10)
    search.eval()
    t0 = time.process_time()
    together = decode_corpus(search, sources, batch_size=64, **options)
    t_batched = time.process_time() - t0
    t0 = time.process_time()
    alone = [beam_search(search, *padded([s]), **options)[0] for s in sources]
    t_alone = time.process_time() - t0
    assert [h[0].tokens for h in together] == [h[0].tokens for h in alone], "batched beam differs"
    out_len = sum(len(h[0].tokens) for h in together) / len(together)
    print(f"beam_sentences={len(sources)}")
    print(f"beam_mean_output_tokens={out_len:.1f}")
    print(f"attention_beam_batched_sentences_per_s={len(sources) / t_batched:.1f}")
    print(f"attention_beam_one_by_one_sentences_per_s={len(sources) / t_alone:.1f}")
    print(f"attention_beam_batched_speedup={t_alone / t_batched:.1f}")

    # -- batched beam before and after keeping the annotations once per sentence
    runs = {"before": EveryRowReorder(search), "after": search}
    best = {k: float("inf") for k in runs}
    outputs = {}
    for _ in range(args.repeat):  # alternating, so both see the same load from other processes
        for key, model in runs.items():
            t0 = time.process_time()
            outputs[key] = decode_corpus(model, sources, batch_size=64, **options)
            best[key] = min(best[key], time.process_time() - t0)
    assert [h[0].tokens for h in outputs["before"]] == [h[0].tokens for h in outputs["after"]], "before/after differ"
    for key in runs:
        print(f"attention_beam_{key}_sentences_per_s={len(sources) / best[key]:.1f}")
    print(f"attention_beam_speedup_over_before={best['before'] / best['after']:.2f}")

    # -- tanh against the sigmoid form on one step's energies (N, S, A)
    x = torch.randn(40, 37, H)
    timings = {}
    for name, fn in (("tanh", torch.tanh), ("sigmoid", lambda v: torch.sigmoid(v * 2.0) * 2.0 - 1.0)):
        best = float("inf")
        for _ in range(5):
            t0 = time.process_time()
            for _ in range(50):
                fn(x)
            best = min(best, time.process_time() - t0)
        timings[name] = best
    print(f"energy_tanh_over_sigmoid_form_time={timings['tanh'] / timings['sigmoid']:.1f}")


if __name__ == "__main__":
    main()
