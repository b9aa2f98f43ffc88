package pipeline

import (
	"io"
	"runtime"
	"sync"
)

// runParallel calls f(0..n-1) on up to GOMAXPROCS goroutines.
func runParallel(n int, f func(i int)) { runWide(n, runtime.GOMAXPROCS(0), f) }

// runWide calls f(0..n-1) on up to width goroutines.
func runWide(n, width int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(n, width) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// lockedWriter serializes writes of parallel loaders' output.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
