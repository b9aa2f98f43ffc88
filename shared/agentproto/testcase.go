package agentproto

// TestCaseEnv names the environment variable by which `stratos test` tells
// the agent host of a run that the run is a test case which does not allow
// real harnesses; its value names the case in the host's errors. It is the
// environment rather than a message because the host must refuse every
// agent of the run, the agents of children that did not inherit the case's
// overrides included, and the environment is what the whole process tree
// of the run shares (the runtime, the host it starts for every execution).
const TestCaseEnv = "STRATOS_TEST_CASE"
