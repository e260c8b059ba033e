package weaviate

// SetListPage sets list's page size until the returned function is called.
func SetListPage(n int) (restore func()) {
	old := listPage
	listPage = n
	return func() { listPage = old }
}
