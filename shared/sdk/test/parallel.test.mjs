// parallel, pipeline and nonNull: results in positions, the concurrency
// limit, onError: "null" for execution failures only, and what a rejection
// or a cancellation does to the work not started and the work running.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parallel, pipeline, nonNull, isExecutionFailure } from "../dist/parallel.js";
import { ExecutionContext } from "../dist/context.js";
import { CancelledError, ChildWorkflowError, ContextClosedError, InputValidationError, OutputValidationError, StratosError } from "../dist/errors.js";
import {
  AdmissionError,
  AgentAuthenticationError,
  AgentConfigurationError,
  AgentExecutionError,
  AgentHookError,
  AgentInitializationError,
  ConcurrentUseError,
  HarnessUnavailableError,
  ModelUnavailableError,
  StructuredOutputError,
  TemplateVariableMissingError,
} from "../dist/agent-errors.js";

// gate is a promise the test resolves by hand, to order events without timers.
function gate() {
  let open;
  const promise = new Promise((resolve) => (open = resolve));
  return { promise, open };
}

// tracker counts running thunks and remembers the highest count.
function tracker() {
  const t = { running: 0, peak: 0, started: [] };
  t.thunk = (i, value = i) => async () => {
    t.started.push(i);
    t.running++;
    t.peak = Math.max(t.peak, t.running);
    await new Promise((r) => setImmediate(r));
    t.running--;
    return value;
  };
  return t;
}

describe("parallel", () => {
  it("resolves to the results in the thunks' positions", async () => {
    const out = await parallel([async () => "a", () => 2, async () => ({ c: true })]);
    assert.deepEqual(out, ["a", 2, { c: true }]);
  });

  it("resolves an empty list to an empty list", async () => {
    assert.deepEqual(await parallel([]), []);
  });

  it("runs no more than concurrency thunks at once, in order of position", async () => {
    const t = tracker();
    const out = await parallel(Array.from({ length: 10 }, (_, i) => t.thunk(i)), { concurrency: 3 });
    assert.deepEqual(out, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(t.peak, 3);
    assert.deepEqual(t.started, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("runs every thunk at once without a concurrency", async () => {
    const t = tracker();
    await parallel(Array.from({ length: 10 }, (_, i) => t.thunk(i)));
    assert.equal(t.peak, 10);
  });

  it("rejects invalid options and thunks before running anything", async () => {
    let ran = false;
    const thunk = () => (ran = true);
    for (const [options, message] of [
      [{ concurrency: 0 }, /concurrency must be a positive integer, got 0/],
      [{ concurrency: 1.5 }, /concurrency must be a positive integer/],
      [{ concurrency: "2" }, /concurrency must be a positive integer/],
      [{ onError: "ignore" }, /onError must be "reject" or "null", got ignore/],
      [{ limit: 2 }, /unknown option "limit"/],
      ["fast", /options must be an object/],
    ]) {
      await assert.rejects(parallel([thunk], options), { name: "TypeError", message });
    }
    await assert.rejects(parallel([thunk, "not a function"]), /give an array of functions/);
    assert.equal(ran, false);
  });

  it("turns execution failures into null with onError: \"null\"", async () => {
    const failures = [
      new AgentExecutionError("a", "boom"),
      new StructuredOutputError("a", "bad shape"),
      new AgentInitializationError("a", "warming up"),
      new AgentHookError("a", "hook threw"),
      new ChildWorkflowError("kid", "x-1", new AgentExecutionError("w", "boom")),
      new ChildWorkflowError("kid", "x-1", new OutputValidationError("kid", [])),
      new Error("the workflow's own check failed"),
      new StratosError("my_code", "an author's error"),
    ];
    const out = await parallel([() => "ok", ...failures.map((e) => () => Promise.reject(e))], { onError: "null" });
    assert.deepEqual(out, ["ok", ...failures.map(() => null)]);
  });

  it("still rejects configuration, admission, cancellation and programming errors with onError: \"null\"", async () => {
    const errors = [
      new AgentConfigurationError("a", "unknown configId"),
      new TemplateVariableMissingError("a", "missing"),
      new AgentAuthenticationError("a", "no credentials"),
      new HarnessUnavailableError("a", "not installed"),
      new ModelUnavailableError("a", "no such model"),
      new AdmissionError("a", "too many"),
      new ConcurrentUseError("a", "busy"),
      new CancelledError(),
      new ContextClosedError("x", "w", "e", "closed"),
      new InputValidationError("kid", []),
      new ChildWorkflowError("kid", "x-1", new AgentConfigurationError("w", "unknown configId")),
      new AgentExecutionError("a", "host bug", { code: "internal" }),
      new TypeError("undefined is not a function"),
    ];
    for (const err of errors) {
      await assert.rejects(parallel([() => "ok", () => Promise.reject(err)], { onError: "null" }), (got) => got === err);
    }
  });

  it("on a rejection starts nothing more, aborts the running thunks' signal and rejects once they settled", async () => {
    const boom = new AgentExecutionError("a", "boom");
    const started = [];
    let sawAbort = false;
    let runningSettled = false;
    const fail = gate();
    const thunks = [
      async (signal) => {
        started.push(0);
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
        sawAbort = true;
        await new Promise((r) => setImmediate(r));
        runningSettled = true;
        throw new CancelledError("stopped");
      },
      async () => {
        started.push(1);
        await fail.promise;
        throw boom;
      },
      async () => {
        started.push(2);
        return "never";
      },
    ];
    const call = parallel(thunks, { concurrency: 2 });
    fail.open();
    await assert.rejects(call, (err) => err === boom);
    assert.deepEqual(started, [0, 1]);
    assert.equal(sawAbort, true);
    assert.equal(runningSettled, true, "parallel rejected before the running thunk settled");
  });

  it("rejects with CancelledError when the execution is cancelled, starting nothing more", async () => {
    const ctx = new ExecutionContext({ executionId: "e-1", workflow: "w", config: { agents: {}, decision: {} }, overrides: {}, host: { rootDir: "/r", workflows: {}, warn() {} } });
    const started = [];
    const cancelled = new CancelledError("Ctrl-C");
    const call = ctx.run(() =>
      parallel(
        [0, 1, 2].map((i) => async (signal) => {
          started.push(i);
          if (i === 0) {
            ctx.cancel(cancelled);
          }
          await new Promise((r) => setImmediate(r));
          assert.equal(signal.aborted, true);
          return i;
        }),
        { concurrency: 1, onError: "null" },
      ),
    );
    await assert.rejects(call, (err) => err === cancelled);
    assert.deepEqual(started, [0]);
    await ctx.close(cancelled);
  });
});

describe("nested fan-outs", () => {
  it("abort a parallel started inside a thunk with the enclosing call's signal", async () => {
    const boom = new AgentExecutionError("a", "boom");
    const fail = gate();
    const seen = {};
    const call = parallel([
      async () => {
        await fail.promise;
        throw boom;
      },
      (outerSignal) =>
        pipeline(
          [0],
          (_, __, stageSignal) =>
            parallel([
              async (innerSignal) => {
                fail.open();
                await new Promise((resolve) => outerSignal.addEventListener("abort", resolve, { once: true }));
                seen.stage = stageSignal.aborted;
                seen.inner = innerSignal.aborted;
                return "done";
              },
            ]),
        ),
    ]);
    await assert.rejects(call, (err) => err === boom);
    assert.deepEqual(seen, { stage: true, inner: true });
  });
});

describe("pipeline", () => {
  it("sends each item through the stages in order, on its own", async () => {
    const order = [];
    const slow = gate();
    const out = await pipeline(
      [1, 2, 3],
      async (n, i) => {
        order.push(`s1:${i}`);
        if (n === 1) {
          await slow.promise;
        }
        return n * 10;
      },
      (n, i) => {
        order.push(`s2:${i}`);
        if (i === 2) {
          slow.open(); // item 3 finished stage 2 while item 1 waits in stage 1
        }
        return `#${n}`;
      },
    );
    assert.deepEqual(out, ["#10", "#20", "#30"]);
    assert.ok(order.indexOf("s2:2") < order.indexOf("s2:0"), order.join(" "));
  });

  it("limits the items in flight and ends a failed item as null with onError: \"null\"", async () => {
    let running = 0;
    let peak = 0;
    const later = [];
    const out = await pipeline(
      [1, 2, 3, 4, 5],
      async (n) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setImmediate(r));
        running--;
        if (n % 2 === 0) {
          throw new StructuredOutputError("judge", "bad");
        }
        return n;
      },
      (n) => {
        later.push(n);
        return n + 0.5;
      },
      { concurrency: 2, onError: "null" },
    );
    assert.deepEqual(out, [1.5, null, 3.5, null, 5.5]);
    assert.deepEqual(later, [1, 3, 5]);
    assert.equal(peak, 2);
  });

  it("rejects without stages or with a stage that is not a function", async () => {
    await assert.rejects(pipeline([1]), /one or more stage functions/);
    await assert.rejects(pipeline([1], (x) => x, "nope", {}), /one or more stage functions/);
    await assert.rejects(pipeline("abc", (x) => x), /items must be an array/);
  });
});

describe("nonNull", () => {
  it("keeps everything but null and undefined", () => {
    assert.deepEqual([0, null, "", undefined, false, "x"].filter(nonNull), [0, "", false, "x"]);
  });
});

describe("isExecutionFailure", () => {
  it("judges a failed execute with a failed onError hook by the execute's error", () => {
    assert.equal(isExecutionFailure(new AggregateError([new AgentExecutionError("a", "x"), new Error("hook")])), true);
    assert.equal(isExecutionFailure(new AggregateError([new AdmissionError("a", "x"), new Error("hook")])), false);
  });

  it("is false for values that are not errors", () => {
    assert.equal(isExecutionFailure("boom"), false);
    assert.equal(isExecutionFailure(undefined), false);
  });
});
