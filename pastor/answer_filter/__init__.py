"""The streamed answer's filters: source markers, prompt leaks and the citation validator with its shapes and
removal."""
