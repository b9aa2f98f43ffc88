import { readdirSync, readFileSync } from "node:fs";
import { z } from "zod";
import { workflow, ask } from "@stratoscli/stratos";

// The agent host is this process's `stratos-agent serve` child; its peak
// memory and open descriptors, read before the run ends and closes it (a
// sampler from outside misses a host that lives half a second).
function host(): { peakKiB: number; fds: number } {
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (status.includes(`\nPPid:\t${process.pid}\n`) && argv[0]!.endsWith("stratos-agent") && argv[1] === "serve") {
        return { peakKiB: Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? -1), fds: readdirSync(`/proc/${pid}/fd`).length };
      }
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return { peakKiB: -1, fds: -1 };
}

export default workflow({
  input: z.strictObject({ n: z.number().int().describe("The run's number.") }),
  output: z.strictObject({
    reply: z.string().describe("The agent's reply."),
    hostPeakKiB: z.number().describe("The agent host's peak resident memory (VmHWM), -1 when not found."),
    hostFDs: z.number().describe("The agent host's open descriptors, -1 when not found."),
    nodePeakKiB: z.number().describe("The runtime's peak resident memory."),
  }),
  async run({ n }) {
    const reply = await ask(`run ${n}`, { configId: "echo" });
    const h = host();
    return { reply, hostPeakKiB: h.peakKiB, hostFDs: h.fds, nodePeakKiB: process.resourceUsage().maxRSS };
  },
});
