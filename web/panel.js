/* "Try the translator": a trained translator of the book, running in the reader's browser.
 *
 * A page places a panel with
 *
 *   <div class="companion-panel" data-model="transformer"></div>
 *   <script src="../_static/companion-panel/panel.js"></script>
 *
 * and this script loads, beside itself, vendor.js (onnxruntime-web + SentencePiece, bundled),
 * ort-wasm.js (onnxruntime's WebAssembly binary, embedded) and models/<data-model>.js (the
 * exported ONNX graphs, SentencePiece models and manifest, embedded): only <script src> files,
 * since a page opened from file:// may neither fetch its neighbours nor import ES modules.
 * Nothing is fetched from the network.
 *
 * The decoding loop follows the export's contract (companion/export/onnx.py): the source is
 * [...SentencePiece ids, EOS]; the decoder step is fed the previous token and its state (the
 * key/value cache of the Transformer, the hidden state of RNNsearch) and returns log-probabilities
 * over the next token and the step's cross-attention (N, L, H, S). Greedy and beam search apply
 * the package's rules (companion.decoding.search): PAD and BOS are never picked, at most
 * min(max_positions, floor(max_len_a * S + max_len_b)) tokens, a sentence at its limit ends
 * without EOS; beam search ranks finished hypotheses by log_prob / ((5 + |Y|) / 6) ** alpha.
 */
(function () {
  "use strict";
  const PAD = 0, BOS = 1, EOS = 2;
  const MAX_CHARS = 1000;  // longer input is refused before tokenization
  const here = document.currentScript ? document.currentScript.src : "";
  const BASE = here.slice(0, here.lastIndexOf("/") + 1);
  const root = (window.CompanionPanel = window.CompanionPanel || {});
  root.models = root.models || {};
  const f32 = Math.fround;

  // ------------------------------------------------------------------ loading
  const scripts = {};
  function loadScript(name) {
    if (!scripts[name]) {
      scripts[name] = new Promise((resolve, reject) => {
        const el = document.createElement("script");
        el.src = BASE + name;
        el.onload = () => resolve();
        el.onerror = () => reject(new Error("could not load " + name));
        document.head.appendChild(el);
      });
    }
    return scripts[name];
  }

  async function unpack(b64) {  // base64 of gzip -> Uint8Array
    const text = atob(b64), raw = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) raw[i] = text.charCodeAt(i);
    const stream = new Blob([raw]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  let runtimePromise = null;
  function runtime() {
    if (!runtimePromise) {
      runtimePromise = (async () => {
        await Promise.all([loadScript("vendor.js"), loadScript("ort-wasm.js")]);
        const ort = window.ort;
        ort.env.wasm.numThreads = 1;   // threads need cross-origin isolation (not on file://)
        ort.env.wasm.proxy = false;    // a worker would have to load a script by URL
        ort.env.wasm.wasmBinary = await unpack(root.ortWasm);
        return ort;
      })();
    }
    return runtimePromise;
  }

  const translators = {};
  function translator(name) {
    if (!translators[name]) {
      translators[name] = (async () => {
        if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error("bad model name " + name);
        const [ort] = await Promise.all([runtime(), loadScript("models/" + name + ".js")]);
        const bundle = root.models[name];
        if (!bundle) throw new Error("models/" + name + ".js defines no model " + name);
        const options = {executionProviders: ["wasm"], graphOptimizationLevel: "all"};
        const [encoder, decoder] = await Promise.all([
          unpack(bundle.encoder).then((b) => ort.InferenceSession.create(b, options)),
          unpack(bundle.decoder_step).then((b) => ort.InferenceSession.create(b, options)),
        ]);
        const src = new window.SentencePieceProcessor();
        const tgt = new window.SentencePieceProcessor();
        await src.loadFromB64StringModel(bundle.src_spm);
        await tgt.loadFromB64StringModel(bundle.tgt_spm);
        return new Translator(ort, bundle, encoder, decoder, src, tgt);
      })();
    }
    return translators[name];
  }

  // ------------------------------------------------------------------ tensors
  function product(dims) { return dims.reduce((a, b) => a * b, 1); }

  // Rows `rows` of `tensor` along `axis` (a gather), as a new tensor.
  function gather(ort, tensor, axis, rows) {
    const dims = tensor.dims, outer = product(dims.slice(0, axis));
    const inner = product(dims.slice(axis + 1)), n = dims[axis];
    const Data = tensor.data.constructor;
    const out = new Data(outer * rows.length * inner);
    for (let o = 0; o < outer; o++) {
      for (let r = 0; r < rows.length; r++) {
        const from = (o * n + rows[r]) * inner;
        out.set(tensor.data.subarray(from, from + inner), (o * rows.length + r) * inner);
      }
    }
    const shape = dims.slice();
    shape[axis] = rows.length;
    return new ort.Tensor(tensor.type, out, shape);
  }

  function int64(ort, values, dims) {
    return new ort.Tensor("int64", BigInt64Array.from(values, (v) => BigInt(v)), dims);
  }

  // ------------------------------------------------------------------ search helpers
  function lengthPenalty(length, alpha) {  // GNMT's ((5 + |Y|) / 6) ** alpha, in float32
    return f32(Math.pow(f32(f32(5 + length) / 6), alpha));
  }

  class Translator {
    constructor(ort, bundle, encoder, decoder, src, tgt) {
      this.ort = ort;
      this.bundle = bundle;
      this.manifest = bundle.manifest;
      this.encoder = encoder;
      this.decoder = decoder;
      this.src = src;
      this.tgt = tgt;
      const m = this.manifest;
      this.layers = m.attention.layers;
      this.heads = m.attention.heads;
    }

    // The source ids ([...pieces, EOS]) or a message for the reader.
    source(text) {
      const trimmed = text.trim();
      if (!trimmed) return {error: "Type a Korean sentence first."};
      if (text.length > MAX_CHARS) {
        return {error: `That is ${text.length} characters; the panel translates one sentence ` +
                       `at a time, up to ${MAX_CHARS} characters.`};
      }
      const ids = this.src.encodeIds(trimmed).concat([EOS]);
      const most = this.manifest.max_positions;
      if (ids.length > most) {
        return {error: `That is ${ids.length} pieces; the model reads at most ${most}.`};
      }
      return {ids};
    }

    limit(S) {
      const d = this.manifest.decoding;
      return Math.max(1, Math.min(this.manifest.max_positions, Math.floor(S * d.max_len_a + d.max_len_b)));
    }

    // The decoder's per-sentence inputs and initial state for one row of one sentence.
    async start(srcIds) {
      const ort = this.ort, spec = this.manifest.decoder, S = srcIds.length;
      const enc = await this.encoder.run({src: int64(ort, srcIds, [1, S])});
      const fixed = {src: int64(ort, srcIds, [1, S])};
      for (const name of spec.per_sentence) fixed[name] = enc[name];
      const state = {};
      for (const [name, s] of Object.entries(spec.state)) {
        if (s.initial === "empty") state[name] = this.empty(name, 1, S);
        else if (s.initial.startsWith("encoder:")) state[name] = enc[s.initial.slice(8)];
        else throw new Error("unknown initial state " + s.initial);
      }
      return {fixed, state};
    }

    // The per-sentence inputs of one row repeated for `rows` rows (beam search).
    repeat(fixed, rows) {
      const out = {};
      const zeros = Array(rows).fill(0);
      for (const [name, tensor] of Object.entries(fixed)) {
        out[name] = gather(this.ort, tensor, name === "src" ? 0 : this.rowAxisOf(name), zeros);
      }
      return out;
    }

    // Which axis of a decoder input holds the rows (N).
    rowAxisOf(name) {
      const shape = this.manifest.decoder.inputs[name][1];
      const axis = shape.indexOf("N");
      if (axis < 0) throw new Error(`decoder input ${name} has no N axis`);
      return axis;
    }

    empty(name, rows, S) {
      const m = this.manifest, model = m.model;
      const known = {N: rows, B: rows, S, t: 0, L: this.layers, H: this.heads,
                     d_k: model.head_dim, V: m.tgt_vocab_size};
      const dims = this.manifest.decoder.inputs[name][1].map((d) => {
        if (typeof d === "number") return d;
        if (d in known && known[d] !== undefined) return known[d];
        throw new Error(`cannot size axis ${d} of ${name}`);
      });
      return new this.ort.Tensor("float32", new Float32Array(product(dims)), dims);
    }

    async step(prev, fixed, state) {
      const feeds = Object.assign({prev_tokens: int64(this.ort, prev, [prev.length])}, fixed, state);
      const out = await this.decoder.run(feeds);
      const next = {};
      for (const [name, s] of Object.entries(this.manifest.decoder.state)) next[name] = out[s.output];
      return {logProbs: out.log_probs, attention: out[this.manifest.decoder.attention], state: next};
    }

    // (N, L, H, S) weights of one row -> Float32Array copy of that row's (L, H, S) block
    static attentionRow(tensor, row) {
      const block = product(tensor.dims.slice(1));
      return tensor.data.slice(row * block, (row + 1) * block);
    }

    async greedy(srcIds) {
      const limit = this.limit(srcIds.length);
      let {fixed, state} = await this.start(srcIds);
      const tokens = [], attention = [];
      let prev = [BOS];
      for (let t = 1; t <= limit; t++) {
        const out = await this.step(prev, fixed, state);
        const lp = out.logProbs.data;
        let best = -1, bestValue = -Infinity;
        for (let v = 0; v < lp.length; v++) {
          if (v === PAD || v === BOS) continue;
          if (lp[v] > bestValue || best < 0) { best = v; bestValue = lp[v]; }
        }
        tokens.push(best);
        attention.push(Translator.attentionRow(out.attention, 0));
        if (best === EOS) break;
        state = out.state;
        prev = [best];
      }
      return {tokens, attention};
    }

    async beam(srcIds) {
      const d = this.manifest.decoding, k = d.beam_size, alpha = d.length_penalty;
      const L = this.limit(srcIds.length);
      const first = await this.start(srcIds);
      const fixedFor = {1: first.fixed};
      let state = first.state;
      // live hypotheses: score (float32 log-probability), tokens, attention rows
      let live = [{score: 0, tokens: [], attention: []}];
      let best = null;  // the best finished (or truncated) hypothesis: {score, tokens, attention}
      let count = 0;    // hypotheses finished so far
      const offer = (logp, tokens, attention, length) => {
        count += 1;
        const score = f32(logp / lengthPenalty(length, alpha));
        if (best === null || score > best.score) best = {score, tokens, attention};
      };
      for (let t = 1; t <= L; t++) {
        const prev = live.map((h) => (h.tokens.length ? h.tokens[h.tokens.length - 1] : BOS));
        const fixed = fixedFor[live.length] || (fixedFor[live.length] = this.repeat(first.fixed, live.length));
        const out = await this.step(prev, fixed, state);
        const V = out.logProbs.dims[1], lp = out.logProbs.data;
        // every extension of every live hypothesis; the 2k best, best first (ties: lower index)
        const cand = [];
        for (let r = 0; r < live.length; r++) {
          for (let v = 0; v < V; v++) {
            if (v === PAD || v === BOS) continue;
            cand.push({value: f32(live[r].score + lp[r * V + v]), r, v});
          }
        }
        cand.sort((a, b) => (b.value - a.value) || (a.r * V + a.v) - (b.r * V + b.v));
        const top = cand.slice(0, 2 * k);
        const rowsAtt = live.map((_, r) => Translator.attentionRow(out.attention, r));
        // EOS extensions among the k best finish
        const finished = top.slice(0, k).filter((c) => c.v === EOS && Number.isFinite(c.value));
        finished.sort((a, b) => a.r - b.r);
        for (const c of finished) {
          offer(c.value, live[c.r].tokens.concat([EOS]), live[c.r].attention.concat([rowsAtt[c.r]]), t);
        }
        // the k best extensions that do not end in EOS stay live
        const picked = [];
        top.forEach((c, i) => { if (c.v !== EOS && picked.length < k) picked.push({c, inTopK: i < k}); });
        const next = picked.map(({c}) => ({score: c.value, tokens: live[c.r].tokens.concat([c.v]),
                                           attention: live[c.r].attention.concat([rowsAtt[c.r]]), parent: c.r}));
        if (t === L) {  // at the length limit what would stay live ends, truncated
          picked.forEach(({inTopK}, i) => {
            if (inTopK && Number.isFinite(next[i].score)) offer(next[i].score, next[i].tokens, next[i].attention, t);
          });
          break;
        }
        // done: nothing live, or no live hypothesis can beat the best finished one (log-probabilities
        // only fall as a hypothesis grows, the penalty grows with its length), or k have finished
        if (!next.length || !Number.isFinite(next[0].score) || count >= k) break;
        if (best !== null && best.score >= f32(next[0].score / lengthPenalty(L, alpha))) break;
        const rows = next.map((h) => h.parent);
        const newState = {};
        for (const [name, s] of Object.entries(this.manifest.decoder.state)) {
          newState[name] = gather(this.ort, out.state[name], s.row_axis, rows);
        }
        state = newState;
        live = next;
      }
      return best === null ? {tokens: [], attention: []} : {tokens: best.tokens, attention: best.attention};
    }

    // text -> {text, srcIds, tokens, attention, ms} or {error}; one translation at a time
    translate(text, mode) {
      const run = (this.queue || Promise.resolve()).then(() => this.translateNow(text, mode));
      this.queue = run.catch(() => {});
      return run;
    }

    async translateNow(text, mode) {
      const source = this.source(text);
      if (source.error) return source;
      const t0 = performance.now();
      const result = mode === "beam" ? await this.beam(source.ids) : await this.greedy(source.ids);
      const shown = result.tokens.filter((i) => i !== PAD && i !== BOS && i !== EOS);
      return {text: this.tgt.decodeIds(shown), srcIds: source.ids, tokens: result.tokens,
              attention: result.attention, ms: performance.now() - t0};
    }

    srcPiece(id) { return this.bundle.src_pieces[id]; }
    tgtPiece(id) { return this.bundle.tgt_pieces[id]; }
  }

  // ------------------------------------------------------------------ heatmap
  const CELL = 22, LEFT = 90, TOP = 70;

  // The (T, S) weights of layer `layer`, head `head` (or the mean of the heads when head < 0).
  function weights(tr, result, layer, head) {
    const S = result.srcIds.length, H = tr.heads;
    return result.attention.map((row) => {
      const out = new Float32Array(S);
      for (let s = 0; s < S; s++) {
        if (head >= 0) {
          out[s] = row[(layer * H + head) * S + s];
        } else {
          let sum = 0;
          for (let h = 0; h < H; h++) sum += row[(layer * H + h) * S + s];
          out[s] = sum / H;
        }
      }
      return out;
    });
  }

  function drawHeatmap(canvas, tr, result, layer, head) {
    const rows = weights(tr, result, layer, head);
    const T = rows.length, S = result.srcIds.length;
    canvas.width = LEFT + S * CELL + 4;
    canvas.height = TOP + T * CELL + 4;
    canvas.dataset.rows = String(T);
    canvas.dataset.cols = String(S);
    const g = canvas.getContext("2d");
    g.fillStyle = "#ffffff";
    g.fillRect(0, 0, canvas.width, canvas.height);
    let max = 0;
    for (const r of rows) for (const w of r) max = Math.max(max, w);
    for (let t = 0; t < T; t++) {
      for (let s = 0; s < S; s++) {
        const v = max > 0 ? rows[t][s] / max : 0;     // 0 white .. 1 dark blue
        const c = (x) => Math.round(255 - v * (255 - x));
        g.fillStyle = `rgb(${c(8)}, ${c(48)}, ${c(107)})`;
        g.fillRect(LEFT + s * CELL, TOP + t * CELL, CELL, CELL);
      }
    }
    g.fillStyle = "#222";
    g.font = "12px NanumGothic, sans-serif";
    g.textBaseline = "middle";
    g.textAlign = "right";
    result.tokens.forEach((id, t) => g.fillText(label(tr.tgtPiece(id), id), LEFT - 4, TOP + t * CELL + CELL / 2));
    g.textAlign = "left";
    result.srcIds.forEach((id, s) => {
      g.save();
      g.translate(LEFT + s * CELL + CELL / 2, TOP - 4);
      g.rotate(-Math.PI / 3);
      g.fillText(label(tr.srcPiece(id), id), 0, 0);
      g.restore();
    });
  }

  function label(piece, id) {
    if (id === EOS) return "</s>";
    return (piece || "?").replace(/\u2581/g, "_");
  }

  // ------------------------------------------------------------------ the panel
  function element(tag, attrs, text) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    return el;
  }

  function build(div) {
    const name = div.dataset.model;
    div.textContent = "";
    div.dataset.state = "loading";
    const status = element("p", {class: "cp-status", role: "status", "aria-live": "polite"},
                           "Loading the translator (it runs in this page, offline)…");
    const examples = element("select", {class: "cp-examples", "aria-label": "Example sentences"});
    const input = element("textarea", {class: "cp-input", lang: "ko", rows: "2",
                                       placeholder: "한국어 문장을 입력하세요", "aria-label": "Korean sentence"});
    const go = element("button", {class: "cp-go", type: "button"}, "Translate");
    const modes = element("span", {class: "cp-modes"});
    for (const mode of ["greedy", "beam"]) {
      const id = `cp-${name}-${mode}`;
      const radio = element("input", {type: "radio", name: `cp-mode-${name}`, value: mode, id});
      if (mode === "greedy") radio.checked = true;
      modes.append(radio, element("label", {for: id}, mode === "greedy" ? "greedy" : "beam"));
    }
    const output = element("p", {class: "cp-output", lang: "en"});
    const picker = element("span", {class: "cp-picker"});
    const layerSel = element("select", {class: "cp-layer", "aria-label": "Layer"});
    const headSel = element("select", {class: "cp-head", "aria-label": "Head"});
    picker.append("Cross-attention: layer ", layerSel, " head ", headSel);
    const canvas = element("canvas", {class: "cp-heatmap", width: "0", height: "0"});
    const row = element("div", {class: "cp-row"});
    row.append(go, modes);
    div.append(examples, input, row, status, output, picker, canvas);
    go.disabled = true;

    let tr = null, last = null, busy = false;
    const redraw = () => {
      if (last) drawHeatmap(canvas, tr, last, Number(layerSel.value), Number(headSel.value));
    };
    layerSel.onchange = redraw;
    headSel.onchange = redraw;

    async function run() {
      if (!tr || busy) return;
      const mode = modes.querySelector("input:checked").value;
      busy = true;
      go.disabled = true;
      div.dataset.state = "busy";
      status.textContent = mode === "beam" ? `Translating (beam of ${tr.manifest.decoding.beam_size})…` : "Translating…";
      await new Promise((r) => setTimeout(r, 0));  // let the message paint
      try {
        const result = await tr.translate(input.value, mode);
        if (result.error) {
          status.textContent = result.error;
          status.classList.add("cp-error");
          div.dataset.state = "message";
        } else {
          last = result;
          output.textContent = result.text;
          status.classList.remove("cp-error");
          status.textContent = `${mode} search, ${result.tokens.length} tokens in ${result.ms.toFixed(0)} ms.`;
          redraw();
          div.dataset.state = "done";
        }
      } catch (e) {
        status.textContent = "The translator failed: " + e.message;
        status.classList.add("cp-error");
        div.dataset.state = "error";
      } finally {
        busy = false;
        go.disabled = false;
      }
    }
    go.onclick = run;
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); run(); }
    });
    examples.onchange = () => { if (examples.value) input.value = examples.value; };

    translator(name).then((loaded) => {
      tr = loaded;
      const m = tr.manifest;
      examples.append(element("option", {value: ""}, "Examples from the test set…"));
      for (const s of tr.bundle.examples || []) examples.append(element("option", {value: s}, s));
      examples.hidden = !(tr.bundle.examples || []).length;
      for (let l = 0; l < tr.layers; l++) layerSel.append(element("option", {value: String(l)}, String(l + 1)));
      layerSel.value = String(tr.layers - 1);
      headSel.append(element("option", {value: "-1"}, "mean"));
      for (let h = 0; h < tr.heads; h++) headSel.append(element("option", {value: String(h)}, String(h + 1)));
      picker.hidden = tr.layers * tr.heads === 1;
      status.textContent = `${tr.bundle.title || m.family}: ready.`;
      go.disabled = false;
      div.dataset.state = "ready";
    }, (e) => {
      status.textContent = "The translator could not load: " + e.message;
      status.classList.add("cp-error");
      div.dataset.state = "error";
    });
  }

  // For scripts (tests, the bench): translate without the panel's widgets.
  root.translate = async (name, text, mode) => (await translator(name)).translate(text, mode || "greedy");
  root.load = (name) => translator(name).then(() => true);

  function init() {
    if (!document.querySelector('link[data-companion-panel]')) {
      const css = element("link", {rel: "stylesheet", href: BASE + "panel.css", "data-companion-panel": ""});
      document.head.appendChild(css);
    }
    document.querySelectorAll(".companion-panel[data-model]").forEach(build);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
