package toolcall

// CheckAs is the callee's check by a tool that speaks own: the tests'
// stale binary of another install speaks a version this build does not.
func CheckAs(own, tool, path, stated string) error { return check(own, tool, path, stated) }
