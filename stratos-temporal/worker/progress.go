package worker

import (
	"sync"

	"github.com/stratoscli/stratos/stratos-temporal/engine"
)

// tailBytes bounds the console output one heartbeat carries.
const tailBytes = 32 << 10

// console is the code's console output as heartbeats report it: how much
// was written, and the last tailBytes of it.
type console struct {
	mu    sync.Mutex
	total int64
	tail  []byte
}

func (c *console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total += int64(len(p))
	c.tail = append(c.tail, p...)
	if over := len(c.tail) - tailBytes; over > 0 {
		c.tail = append(c.tail[:0], c.tail[over:]...)
	}
	return len(p), nil
}

func (c *console) progress(worker string, attempt int) engine.Progress {
	c.mu.Lock()
	defer c.mu.Unlock()
	return engine.Progress{Worker: worker, Attempt: attempt, Total: c.total, Tail: append([]byte(nil), c.tail...)}
}
