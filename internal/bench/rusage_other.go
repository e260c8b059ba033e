//go:build !linux

package bench

import "time"

// peakRSS is not measured off Linux, where getrusage's units differ by
// system; -1 reports it as unknown.
func peakRSS() int64 { return -1 }

// cpuTime is not measured off Linux; -1 reports it as unknown.
func cpuTime() time.Duration { return -1 }

// childCPU is not measured off Linux; -1 reports it as unknown.
func childCPU() time.Duration { return -1 }
