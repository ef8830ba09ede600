"""Index build and serving: the verse and document tables, the build pipeline and its lock, loading, the engine
and its status."""
