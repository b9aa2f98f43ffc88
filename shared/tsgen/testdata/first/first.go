// Package first is a fixture of ReadDocs: its comments win over second's.
package first

// Shared is declared by both packages; this comment wins.
type Shared struct {
	// Name is first's field comment.
	Name string
}

// OnlyFirst is first's alone.
type OnlyFirst struct{}
