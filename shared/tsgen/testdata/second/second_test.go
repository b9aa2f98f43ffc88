package second

// InTest is declared in a test file, which ReadDocs leaves out.
type InTest struct{}
