//go:build !linux

package daemon

import "net"

// samePeer relies on the socket directory's mode where the kernel offers
// no SO_PEERCRED.
func samePeer(net.Conn) bool { return true }
