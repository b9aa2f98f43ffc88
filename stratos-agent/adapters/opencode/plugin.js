// Stratos hooks for OpenCode, generated into the isolated configuration of
// one session. It forwards every tool call (except OpenCode's own
// structured-output delivery and its unknown-tool placeholder) to the
// agent host's hook server on loopback and applies the answer:
//   before: allow | deny (throw: the call fails with the reason) |
//           modify (arguments replaced in place: OpenCode passes this very
//           object to the tool) | fail (the author hook threw)
//   after:  keep | replace (the output the model reads) | fail
// and keeps the server's secrets out of the environment of the commands
// the agent runs.
// It imports nothing, so OpenCode needs no package install for it.
const skipped = new Set(["StructuredOutput", "invalid"]);

export const StratosHooks = async (_input, options) => {
  const url = options.url;
  const token = options.token;
  // The server's own secrets (the names of the variables holding its
  // password and its configuration, with this plugin's token). Commands
  // the agent runs must not read them.
  const secrets = options.secrets ?? [];
  // OpenCode spawns commands with its own environment plus this output;
  // an undefined value leaves the variable out.
  const shellEnv = async (_input, output) => {
    for (const k of secrets) output.env[k] = undefined;
  };
  // Without a hook server the author has no tool hook: nothing to ask.
  if (!url) return { "shell.env": shellEnv };
  async function call(path, body) {
    const res = await fetch(url + path, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer " + token },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(3600 * 1000),
    });
    if (!res.ok) throw new Error("Stratos hook server answered HTTP " + res.status);
    return await res.json();
  }
  return {
    "shell.env": shellEnv,
    "tool.execute.before": async (input, output) => {
      if (skipped.has(input.tool)) return;
      const d = await call("/before", { sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: output.args });
      if (d.decision === "deny" || d.decision === "fail") throw new Error(d.reason);
      if (d.decision === "modify") {
        for (const k of Object.keys(output.args)) delete output.args[k];
        Object.assign(output.args, d.args);
      }
    },
    "tool.execute.after": async (input, output) => {
      if (skipped.has(input.tool)) return;
      const mcp = Array.isArray(output.content);
      const body = { sessionID: input.sessionID, callID: input.callID, tool: input.tool, args: input.args, mcp };
      if (mcp) {
        body.content = output.content;
        body.isError = output.isError === true;
      } else {
        body.output = output.output;
        body.metadata = output.metadata;
      }
      const d = await call("/after", body);
      if (d.decision === "fail") throw new Error(d.reason);
      if (d.decision === "replace") {
        if (mcp) {
          output.content = [{ type: "text", text: d.output }];
          output.isError = false;
        } else {
          output.output = d.output;
        }
      }
    },
  };
};
