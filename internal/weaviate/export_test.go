package weaviate

import "context"

// SetListPage sets list's page size until the returned function is called.
func SetListPage(n int) (restore func()) {
	old := listPage
	listPage = n
	return func() { listPage = old }
}

// PushMarkerLeft says whether the tenant still holds a push's marker (a
// push under way, or one that did not remove it).
func (c *Client) PushMarkerLeft(ctx context.Context, repo string) (bool, error) {
	_, marker, err := c.fileRecordsAndMarker(ctx, repo)
	return marker, err
}
