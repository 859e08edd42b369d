package frames

import (
	"bufio"
	"io"
	"sync"
)

// MaxLineBytes is below the SDK's own 16 MiB frame limit; a longer line is answered once and discarded without
// being buffered.
const MaxLineBytes = 8 * 1024 * 1024

// TooLarge answers a line over MaxLineBytes.
var TooLarge = ErrorLine("", -32600, "Invalid Request: line longer than 8 MiB", "")

// LineWriter writes whole lines to one stream under one lock, so the gate's error lines and the SDK's replies
// never interleave. The SDK writes each message as one Write of the message and its newline; a Write that is not
// a whole line is held until its newline comes.
type LineWriter struct {
	mu      sync.Mutex
	out     io.Writer
	partial []byte
}

// NewLineWriter wraps out (stdout).
func NewLineWriter(out io.Writer) *LineWriter { return &LineWriter{out: out} }

// Write passes on whole lines only.
func (w *LineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.partial = append(w.partial, p...)
	last := -1
	for i := len(w.partial) - 1; i >= 0; i-- {
		if w.partial[i] == '\n' {
			last = i
			break
		}
	}
	if last < 0 {
		return len(p), nil
	}
	_, err := w.out.Write(w.partial[:last+1])
	w.partial = append(w.partial[:0], w.partial[last+1:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteLine writes one line and its newline at once, ahead of any partial line still held.
func (w *LineWriter) WriteLine(line string) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.out.Write([]byte(line + "\n"))
	return err
}

// Close is a no-op: stdout stays open for the process's lifetime.
func (w *LineWriter) Close() error { return nil }

// Run reads lines from in, answers or drops the ones the SDK must not see, and writes the rest, each with its
// newline, to toSDK. It returns at end of input (closing toSDK, so the SDK sees end of input as well) or on a read
// error. onRefused, if not nil, is told about each refused line (for stderr).
func Run(in io.Reader, toSDK io.WriteCloser, out *LineWriter, onRefused func(reply string)) error {
	defer toSDK.Close()
	r := bufio.NewReaderSize(in, 64*1024)
	var line []byte
	discarding := false
	for {
		chunk, err := r.ReadSlice('\n')
		complete := err == nil
		if len(chunk) > 0 && !discarding {
			if len(line)+len(chunk) > MaxLineBytes+1 || (!complete && len(line)+len(chunk) > MaxLineBytes) {
				discarding = true
				line = line[:0]
				_ = out.WriteLine(TooLarge)
				if onRefused != nil {
					onRefused(TooLarge)
				}
			} else {
				line = append(line, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if complete || (err == io.EOF && len(line) > 0) {
			if discarding {
				discarding = false
			} else {
				body := line
				if complete {
					body = line[:len(line)-1]
				}
				if werr := judgeOne(body, toSDK, out, onRefused); werr != nil {
					return werr
				}
			}
			line = line[:0]
		}
		if err == io.EOF {
			return nil
		}
		if err != nil && err != bufio.ErrBufferFull {
			return err
		}
	}
}

func judgeOne(body []byte, toSDK io.Writer, out *LineWriter, onRefused func(string)) error {
	v := Judge(body)
	switch v.Kind {
	case Forward:
		if v.Line != "" {
			body = []byte(v.Line)
		}
		framed := make([]byte, 0, len(body)+1)
		framed = append(append(framed, body...), '\n')
		_, err := toSDK.Write(framed)
		return err
	case Reply:
		if onRefused != nil {
			onRefused(v.Line)
		}
		return out.WriteLine(v.Line)
	default:
		if onRefused != nil {
			onRefused("")
		}
		return nil
	}
}
