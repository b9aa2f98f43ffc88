package ollama

// Instructions tell the user how to install, start and prepare Ollama on
// their operating system. Stratos prints them and never runs them: the
// authoring agent and the user decide.
type Instructions struct {
	OS      string   `json:"os"`
	Install []string `json:"install"`
	Start   []string `json:"start"`
	// Pull is how to install a model (Stratos never pulls one).
	Pull []string `json:"pull"`
	// Context is how to give the harnesses the context they need.
	Context []string `json:"context"`
}

// InstructionsFor returns the instructions for goos (runtime.GOOS).
func InstructionsFor(goos string) Instructions {
	in := Instructions{OS: goos,
		Pull: []string{"ollama pull <model>   (e.g. ollama pull qwen3:8b; pick a model whose capabilities include tools)"},
		Context: []string{
			"Codex and OpenCode need a context of at least 64K tokens: start the server with OLLAMA_CONTEXT_LENGTH=65536,",
			"or create a model with PARAMETER num_ctx 65536 in its Modelfile; check the loaded context with `ollama ps`.",
		}}
	switch goos {
	case "darwin":
		in.Install = []string{"brew install ollama", "or download the app from https://ollama.com/download/mac"}
		in.Start = []string{"open -a Ollama   (the app starts the server)", "or: ollama serve"}
	case "windows":
		in.Install = []string{"winget install Ollama.Ollama", "or download the installer from https://ollama.com/download/windows"}
		in.Start = []string{"start the Ollama app from the Start menu", "or: ollama serve"}
	default:
		in.Install = []string{"curl -fsSL https://ollama.com/install.sh | sh", "or see https://ollama.com/download/linux"}
		in.Start = []string{"sudo systemctl start ollama   (installed as a service by the script)", "or: ollama serve"}
	}
	return in
}
