"""The Gradio app: page, handlers, rendering, named API endpoints, health routes, rate limits and the runtime.
May import every package below it (answer, search, providers, bible, documents, text, config)."""
