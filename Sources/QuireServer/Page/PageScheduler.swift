extension PageAssets {
    /// Quire's three schedulers in JavaScript, for a page that studies with no server (an offline
    /// study pack): FSRS-6 as `FSRSScheduler` computes it (py-fsrs 6's formulas in double
    /// precision, Anki's interval ordering, the deterministic fuzz), SM-2 as `SM2Scheduler`, and
    /// StudyFlow as `StudyFlowScheduler`. Each gives the same states, steps, intervals and due
    /// times as the Swift code for the same card, settings and answers (`PageSchedulerTests` runs
    /// the FSRS oracle's sequences and random SM-2 and StudyFlow sequences through both).
    ///
    /// `QuireScheduler.next(settings, state, rating, at, card)` → the new state;
    /// `QuireScheduler.preview(settings, state, at, card)` → one state per button. A state is
    /// `{state, step, due, last, stability, difficulty, ease, interval, reps, lapses, flow, streak,
    /// attempts}` (times in milliseconds since 1970, absent fields null); settings are
    /// `{kind: "fsrs" | "sm2" | "flow", buttons, desiredRetention, learningSteps,
    /// relearningSteps (seconds), maximumInterval, fuzz, parameters (21), intervalOrdering}`.
    static let scheduler = #"""
    "use strict";
    var QuireScheduler = (function () {
      const DAY = 86400000;
      const MASK = (1n << 64n) - 1n;

      // ---- numbers as Swift rounds them ----
      function roundHalfEven(x) {
        const f = Math.floor(x), d = x - f;
        if (d > 0.5) return f + 1;
        if (d < 0.5) return f;
        return f % 2 === 0 ? f : f + 1;
      }
      function roundHalfAway(x) {
        const a = Math.abs(x), f = Math.floor(a);
        const r = a - f >= 0.5 ? f + 1 : f;
        return x < 0 ? -r : r;
      }
      function addDays(ms, days) { return ms + days * DAY; }
      function addSeconds(ms, seconds) { return ms + roundHalfAway(seconds * 1000); }

      // ---- SipHash-2-4, keyed (k0, 0): the deterministic draws of fuzz and StudyFlow ----
      function rotl(x, b) { return ((x << b) | (x >> (64n - b))) & MASK; }
      function sipHash(k0, bytes) {
        let v0 = 0x736f6d6570736575n ^ k0, v1 = 0x646f72616e646f6dn;
        let v2 = 0x6c7967656e657261n ^ k0, v3 = 0x7465646279746573n;
        function round() {
          v0 = (v0 + v1) & MASK; v1 = rotl(v1, 13n); v1 ^= v0; v0 = rotl(v0, 32n);
          v2 = (v2 + v3) & MASK; v3 = rotl(v3, 16n); v3 ^= v2;
          v0 = (v0 + v3) & MASK; v3 = rotl(v3, 21n); v3 ^= v0;
          v2 = (v2 + v1) & MASK; v1 = rotl(v1, 17n); v1 ^= v2; v2 = rotl(v2, 32n);
        }
        const n = bytes.length;
        let i = 0;
        for (; i + 8 <= n; i += 8) {
          let m = 0n;
          for (let j = 7; j >= 0; j--) m = (m << 8n) | BigInt(bytes[i + j]);
          v3 ^= m; round(); round(); v0 ^= m;
        }
        let b = BigInt(n & 0xff) << 56n;
        for (let j = 0; i + j < n; j++) b |= BigInt(bytes[i + j]) << BigInt(8 * j);
        v3 ^= b; round(); round(); v0 ^= b;
        v2 ^= 0xffn; round(); round(); round(); round();
        return (v0 ^ v1 ^ v2 ^ v3) & MASK;
      }
      function draw(key, domain, card, count) {
        const text = new TextEncoder().encode(domain + "\u0000" + card + "\u0000" + String(count));
        return sipHash(key, text);
      }

      // ---- Anki's interval fuzz with a factor drawn from the card ----
      function fuzzFactor(card, reviews) {
        return Number(draw(0x7175697265667a7an, "quire-fuzz-v1", card, reviews) >> 11n) * Math.pow(2, -53);
      }
      function fuzzBounds(interval, minimum, maximum) {
        minimum = Math.min(minimum, maximum);
        const ivl = Math.min(Math.max(interval, minimum), maximum);
        let delta = 0;
        if (ivl >= 2.5) {
          delta = 1 + 0.15 * Math.max(Math.min(ivl, 7) - 2.5, 0) + 0.1 * Math.max(Math.min(ivl, 20) - 7, 0)
            + 0.05 * Math.max(ivl - 20, 0);
        }
        let lower = roundHalfAway(ivl - delta), upper = roundHalfAway(ivl + delta);
        lower = Math.min(Math.max(lower, minimum), maximum);
        upper = Math.min(Math.max(upper, minimum), maximum);
        if (upper === lower && upper > 2 && upper < maximum) upper = lower + 1;
        return [lower, upper];
      }
      function fuzz(interval, factor, minimum, maximum) {
        const [lower, upper] = fuzzBounds(interval, minimum, maximum);
        return Math.min(lower + Math.floor(factor * (upper - lower + 1)), upper);
      }

      function copy(state) {
        const s = state || {};
        return {
          state: s.state || "new", step: s.step ?? null, due: s.due ?? null, last: s.last ?? null,
          stability: s.stability ?? null, difficulty: s.difficulty ?? null, ease: s.ease ?? null,
          interval: s.interval ?? null, reps: s.reps || 0, lapses: s.lapses || 0,
          flow: s.flow ?? null, streak: s.streak ?? null, attempts: s.attempts ?? null
        };
      }

      // ---- FSRS-6 ----
      function fsrs(settings) {
        const w = settings.parameters, decay = -w[20];
        const factor = Math.pow(0.9, 1 / decay) - 1;
        const retentionTerm = Math.pow(settings.desiredRetention, 1 / decay) - 1;
        const MIN_S = 0.001;
        const initialStability = r => Math.max(w[r - 1], MIN_S);
        function initialDifficulty(r, clamp) {
          const d = w[4] - Math.exp(w[5] * (r - 1)) + 1;
          return clamp === false ? d : Math.min(Math.max(d, 1), 10);
        }
        const retrievability = (s, days) => Math.pow(1 + factor * Math.max(days, 0) / s, decay);
        function shortTerm(s, r) {
          let inc = Math.exp(w[17] * (r - 3 + w[18])) * Math.pow(s, -w[19]);
          if (r !== 1) inc = Math.max(inc, 1);
          return Math.max(s * inc, MIN_S);
        }
        function nextDifficulty(d, r) {
          const target = initialDifficulty(4, false);
          const delta = -(w[6] * (r - 3));
          const damped = d + (10 - d) * delta / 9;
          return Math.min(Math.max(w[7] * target + (1 - w[7]) * damped, 1), 10);
        }
        function nextStability(s, d, ret, r) {
          let next;
          if (r === 1) {
            const longTerm = w[11] * Math.pow(d, -w[12]) * (Math.pow(s + 1, w[13]) - 1) * Math.exp((1 - ret) * w[14]);
            next = Math.min(longTerm, s / Math.exp(w[17] * w[18]));
          } else {
            const hard = r === 2 ? w[15] : 1, easy = r === 4 ? w[16] : 1;
            next = s * (1 + Math.exp(w[8]) * (11 - d) * Math.pow(s, -w[9]) * (Math.exp((1 - ret) * w[10]) - 1) * hard * easy);
          }
          return Math.max(next, MIN_S);
        }
        function nextInterval(s) {
          const rounded = roundHalfEven((s / factor) * retentionTerm);
          if (!(rounded < settings.maximumInterval)) return settings.maximumInterval;
          return Math.max(rounded, 1);
        }
        function fromEase(ease, interval) {
          const s = Math.max(interval, MIN_S) * factor / (Math.pow(0.9, 1 / decay) - 1);
          const d = 11 - (ease - 1) / (Math.exp(w[8]) * Math.pow(s, -w[9]) * Math.expm1((1 - 0.9) * w[10]));
          return { stability: s, difficulty: isFinite(d) ? Math.min(Math.max(d, 1), 10) : 5 };
        }
        function elapsedDays(last, now) { return Math.floor((now - last) / DAY); }
        function prior(old, now) {
          let memory = null;
          if (old.stability != null && old.difficulty != null) {
            memory = { stability: old.stability, difficulty: old.difficulty };
          } else if ((old.state === "review" || old.state === "relearning") && old.ease != null && old.interval != null && old.interval > 0) {
            memory = fromEase(old.ease, old.interval);
          }
          return { memory, elapsed: old.last == null ? null : elapsedDays(old.last, now) };
        }
        function update(p, r) {
          const m = p.memory;
          if (!m) return { stability: initialStability(r), difficulty: initialDifficulty(r) };
          let s;
          if (p.elapsed != null && p.elapsed < 1) s = shortTerm(m.stability, r);
          else s = nextStability(m.stability, m.difficulty, p.elapsed == null ? 0 : retrievability(m.stability, p.elapsed), r);
          return { stability: s, difficulty: nextDifficulty(m.difficulty, r) };
        }
        return function next(state, rating, now, card) {
          const old = copy(state);
          const before = prior(old, now);
          const memory = update(before, rating);
          const out = copy(old);
          out.stability = memory.stability;
          out.difficulty = memory.difficulty;
          out.last = now;
          out.reps = old.reps + 1;
          const ff = settings.fuzz ? fuzzFactor(card, out.reps) : null;
          const constrain = (days, minimum) => ff != null ? fuzz(days, ff, minimum, settings.maximumInterval)
            : Math.min(Math.max(days, minimum), settings.maximumInterval);
          function graduate(days) {
            out.state = "review"; out.step = null; out.interval = days; out.due = addDays(now, days);
            return out;
          }
          function stay(phase, step, seconds) {
            out.state = phase; out.step = step; out.interval = null; out.due = addSeconds(now, seconds);
            return out;
          }
          if (old.state === "review" && before.memory) {
            if (rating === 1) {
              out.lapses = old.lapses + 1;
              if (settings.relearningSteps.length > 0) return stay("relearning", 0, settings.relearningSteps[0]);
              return graduate(constrain(nextInterval(memory.stability), 1));
            }
            if (!settings.intervalOrdering) return graduate(constrain(nextInterval(memory.stability), 1));
            const hard = constrain(nextInterval(rating === 2 ? memory.stability : update(before, 2).stability), 1);
            if (rating === 2) return graduate(hard);
            const good = constrain(nextInterval(rating === 3 ? memory.stability : update(before, 3).stability), hard + 1);
            if (rating === 3) return graduate(good);
            return graduate(constrain(nextInterval(memory.stability), good + 1));
          }
          const relearning = old.state === "relearning";
          const steps = relearning ? settings.relearningSteps : settings.learningSteps;
          const phase = relearning ? "relearning" : "learning";
          const step = old.state === "new" || old.state === "review" ? 0 : Math.max(old.step ?? 0, 0);
          function graduateFromSteps() {
            const days = nextInterval(memory.stability);
            if (rating !== 4 || !settings.intervalOrdering) return graduate(constrain(days, 1));
            const good = constrain(nextInterval(update(before, 3).stability), 1);
            return graduate(constrain(days, good + 1));
          }
          if (steps.length === 0 || (step >= steps.length && rating !== 1)) return graduateFromSteps();
          switch (rating) {
            case 1: return stay(phase, 0, steps[0]);
            case 2:
              if (step === 0) return stay(phase, 0, steps.length === 1 ? steps[0] * 1.5 : (steps[0] + steps[1]) / 2);
              return stay(phase, step, steps[step]);
            case 3:
              if (step + 1 >= steps.length) return graduateFromSteps();
              return stay(phase, step + 1, steps[step + 1]);
            default: return graduateFromSteps();
          }
        };
      }

      // ---- SM-2 ----
      function sm2(settings) {
        const cents = x => roundHalfAway(x * 100) / 100;
        function ceil(x) {
          const nearest = roundHalfAway(x);
          return Math.abs(x - nearest) < 1e-9 ? nearest : Math.ceil(x);
        }
        return function next(state, rating, now) {
          const old = copy(state);
          const ease = old.ease ?? 2.5;
          const interval = Math.max(old.interval ?? 0, 0);
          const out = copy(old);
          out.reps = old.reps + 1;
          out.last = now;
          out.step = null;
          let days;
          if (rating === 1) {
            out.ease = cents(Math.max(ease - 0.2, 1.3));
            out.interval = 0;
            out.due = addSeconds(now, 600);
            if (interval > 0 || old.state === "review" || old.state === "relearning") {
              out.state = "relearning";
              if (interval > 0) out.lapses = old.lapses + 1;
            } else {
              out.state = "learning";
            }
            return out;
          } else if (rating === 2) {
            out.ease = cents(Math.max(ease - 0.15, 1.3));
            days = interval === 0 ? 1 : Math.max(ceil(interval * 1.2), interval + 1);
          } else if (rating === 3) {
            out.ease = ease;
            days = interval === 0 ? 1 : interval === 1 ? 6 : ceil(interval * ease);
          } else {
            out.ease = cents(Math.min(ease + 0.15, 3.0));
            days = interval === 0 ? 4 : ceil(interval * ease * 1.3);
          }
          const capped = Math.min(days, settings.maximumInterval);
          out.state = "review";
          out.interval = capped;
          out.due = addDays(now, capped);
          return out;
        };
      }

      // ---- StudyFlow ----
      function coin(card, attempts) { return Number(draw(0x7175697265666c77n, "quire-flow-v1", card, attempts) & 1n); }
      function flowDays(flow, card, attempts) {
        switch (flow) {
          case "learning": return 1;
          case "reviewing": return 2 + coin(card, attempts);
          case "mastered": return 6 + coin(card, attempts);
          default: return null;
        }
      }
      function studyFlow() {
        return function next(state, rating, now, card) {
          const old = copy(state);
          const out = copy(old);
          const flow = old.flow ?? "learning";
          out.flow = flow;
          out.state = "review";
          out.step = null;
          out.reps = old.reps + 1;
          out.attempts = (old.attempts ?? 0) + 1;
          out.streak = rating === 1 ? 0 : (old.streak ?? 0) + 1;
          out.last = now;
          const days = rating === 1 && flow !== "inactive" ? 1 : flowDays(flow, card, out.attempts);
          out.due = days == null ? null : addDays(now, days);
          return out;
        };
      }

      function scheduler(settings) {
        if (settings.kind === "sm2") return sm2(settings);
        if (settings.kind === "flow") return studyFlow(settings);
        return fsrs(settings);
      }
      function ratings(settings) { return settings.buttons === 3 ? [1, 3, 4] : [1, 2, 3, 4]; }
      return {
        next: (settings, state, rating, now, card) => scheduler(settings)(state, rating, now, card),
        preview: function (settings, state, now, card) {
          const next = scheduler(settings), out = {};
          for (const r of ratings(settings)) out[r] = next(state, r, now, card);
          return out;
        },
        ratings
      };
    })();
    if (typeof module !== "undefined") module.exports = QuireScheduler;
    """#
}
