// Package second is a fixture of ReadDocs.
package second

// Shared is second's comment, hidden by first's.
type Shared struct {
	// Name is second's field comment, hidden by first's.
	Name string
	// Extra is second's alone.
	Extra string
}

// OnlySecond is second's alone.
type OnlySecond struct{}
