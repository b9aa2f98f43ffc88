// The TypeScript side of scripts/bench-acp: the official ACP TypeScript
// SDK (@agentclientprotocol/sdk, its client app) drives `gemini --acp` for
// the same turns as testscripts/cmd/acpturns, with the same launch as the
// gemini adapter's: --acp --model, a private home whose settings.json is
// the adapter's, no system settings, a temporary directory of its own,
// the system prompt as GEMINI_SYSTEM_MD, the gemini-api-key auth method.
//
//   node acp-sdk-turns.mjs TURNS WARMUP WORKDIR STATEDIR
//
// STRATOS_TEST_ACP_SDK names the SDK's entry script; STRATOS_GEMINI the
// CLI. Prints one JSON line: lat (ms per timed turn), firstMs (spawn,
// initialize, authenticate, session/new and one prompt), cpuMs (this
// process's CPU time per timed turn), peakKB (this
// process's VmHWM, without the CLI's).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const { client, ndJsonStream, PROTOCOL_VERSION } = await import(pathToFileURL(process.env.STRATOS_TEST_ACP_SDK).href);

const [turns, warmup, workdir, state] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4], process.argv[5]];
const model = "gemini-2.5-flash";
const systemPrompt = "You are a benchmark agent.";

// The adapter's private configuration (stratos-agent/adapters/gemini's
// isolate and newSettings, for an agent with no tool selection and no MCP
// servers).
const settings = {
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, sessionRetention: { enabled: false } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  tools: { exclude: [] },
  mcp: {},
};
const dir = mkdtempSync(join(tmpdir(), "stratos-gemini-"));
const home = join(state, "home");
mkdirSync(join(home, ".gemini"), { recursive: true, mode: 0o700 });
mkdirSync(join(dir, "tmp"), { mode: 0o700 });
writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings, null, 2), { mode: 0o600 });
writeFileSync(join(dir, "system.md"), systemPrompt, { mode: 0o600 });
const isolated = new Set(["GEMINI_CLI_HOME", "GEMINI_SYSTEM_MD", "GEMINI_WRITE_SYSTEM_MD",
  "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH", "TMPDIR"]);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !isolated.has(k)));
Object.assign(env, {
  GEMINI_CLI_HOME: home,
  GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(dir, "no-system-settings.json"),
  GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(dir, "no-system-settings.json"),
  TMPDIR: join(dir, "tmp"),
  GEMINI_SYSTEM_MD: join(dir, "system.md"),
});

const t00 = performance.now();
const cli = spawn(process.env.STRATOS_GEMINI, ["--acp", "--model", model], { cwd: workdir, env, stdio: ["pipe", "pipe", "ignore"] });
const stream = ndJsonStream(Writable.toWeb(cli.stdin), Readable.toWeb(cli.stdout));
const app = client({ name: "bench" })
  .onRequest("session/request_permission", ({ params }) => ({
    outcome: { outcome: "selected", optionId: params.options.find((o) => o.kind.startsWith("allow"))?.optionId ?? params.options[0].optionId },
  }));

const report = await app.connectWith(stream, async (ctx) => {
  const init = await ctx.request("initialize", { protocolVersion: PROTOCOL_VERSION, clientInfo: { name: "bench", version: "0" } });
  if (init.authMethods?.some((m) => m.id === "gemini-api-key")) await ctx.request("authenticate", { methodId: "gemini-api-key" });
  const session = await ctx.buildSession({ cwd: workdir, mcpServers: [] }).start();
  const turn = async (text) => {
    const [reply] = await Promise.all([session.readText(), session.prompt(text)]);
    if (reply.trim() === "") throw new Error(`${text}: the reply has no text`);
  };
  await turn("turn 0");
  const firstMs = performance.now() - t00;
  for (let i = 1; i <= warmup; i++) await turn(`warm-up ${i}`);
  const lat = [];
  const cpu0 = process.cpuUsage();
  for (let i = 1; i <= turns; i++) {
    const t0 = performance.now();
    await turn(`turn ${i}`);
    lat.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  session.dispose();
  const peakKB = Number(readFileSync("/proc/self/status", "utf8").match(/VmHWM:\s+(\d+) kB/)[1]);
  return { lat, firstMs, cpuMs: (cpu.user + cpu.system) / 1000 / turns, peakKB };
});
cli.kill("SIGTERM");
rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify(report));
process.exit(0);
