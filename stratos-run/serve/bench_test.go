package serve

import (
	"context"
	"net/http"
	"runtime"
	"testing"
)

// BenchmarkFiftyStreams holds 50 event streams of one running run (100
// agents' events in its log) open at once and reports the server's extra
// heap and goroutines: figures to compare, not limits.
func BenchmarkFiftyStreams(b *testing.B) {
	for range b.N {
		b.StopTimer()
		f := newFixture(b, true)
		f.begin("20261203T090000Z-live0001", "w", sleeper(b).Process.Pid, t0)
		for i := range 100 {
			agent := "run/agent-" + itoa(i)
			f.appendEvents("20261203T090000Z-live0001", ev(2*i+1, "agent.invocation.started", agent), ev(2*i+2, "agent.invocation.completed", agent))
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		g0 := runtime.NumGoroutine()
		b.StartTimer()
		streams := make([]sseReader, 0, 50)
		var resps []*http.Response
		for range 50 {
			resp, err := http.DefaultClient.Do(ownRequest(context.Background(), f.srv.URL+"/api/runs/20261203T090000Z-live0001/events"))
			if err != nil {
				b.Fatal(err)
			}
			resps = append(resps, resp)
			streams = append(streams, sseReader{r: newReader(resp)})
		}
		// Every stream has replayed the log: it is now following.
		for _, s := range streams {
			for range 201 {
				s.next(b)
			}
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/(1<<20), "MB-extra-heap")
		b.ReportMetric(float64(runtime.NumGoroutine()-g0), "goroutines")
		for _, r := range resps {
			r.Body.Close()
		}
	}
}
