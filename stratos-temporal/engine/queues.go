package engine

// The task queues of a run submitted to queue: its workflow and code go to
// queue itself; its execute workflows to ExecuteQueue; its agents to
// AgentQueue, to HarnessQueue when the agent names its harness (only
// workers that have its CLI and a credential for it poll that one), to
// OllamaQueue when it names provider ollama too (workers that have the
// CLI), and to OwnQueue of the worker holding an agent's conversation.

// AgentQueue is the queue of the run's agents that any agent worker takes.
func AgentQueue(queue string) string { return queue + ".agents" }

// OwnQueue is one worker's own queue.
func OwnQueue(queue, worker string) string { return AgentQueue(queue) + "@" + worker }

// HarnessQueue is the queue of agents of one harness.
func HarnessQueue(agentQueue, harness string) string { return agentQueue + "." + harness }

// OllamaQueue is the queue of agents of one harness on provider ollama,
// which need no credential, that no worker was seen to have the model of
// (OllamaModelQueue).
func OllamaQueue(agentQueue, harness string) string {
	return HarnessQueue(agentQueue, harness) + ".ollama"
}

// ExecuteQueue is the queue of a run's execute workflows. The code's agent
// host polls it itself and starts each execute there eagerly (its first
// workflow task comes back in the start's answer); the workers that take
// code poll it too, for an execute whose code's worker died.
func ExecuteQueue(queue string) string { return queue + ".executes" }

// OllamaModelQueue is the queue of agents of one harness on provider
// ollama whose model (an installed name, tag included) the worker's
// Ollama has.
func OllamaModelQueue(agentQueue, harness, model string) string {
	return OllamaQueue(agentQueue, harness) + "." + model
}
