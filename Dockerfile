# Pastor Online: CPU-only image with the shipped data (corpus/*.gz: Almeida 1911, Bíblia Livre, verse
# prominence) and the recommended setup on by default. Without a model server or an API key it downloads
# the local model (PASTOR_LOCAL_MODEL) once into the data volume and answers with it; until then, or
# without internet, it answers with the retrieved verses (mode provider_unavailable).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PASTOR_HOST=0.0.0.0 \
    PASTOR_PORT=7860 \
    PASTOR_DATA_DIR=/app/data

WORKDIR /app

# CPU wheel of torch first, from PyTorch's CPU index, so requirements.txt does not pull CUDA.
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY app.py ./
COPY pastor ./pastor
# The data the defaults name (relative to /app), its NOTICE.md, and the example church documents
# (indexed only with PASTOR_DOCS_DIR=corpus/docs/example).
COPY corpus ./corpus
# The data sets the app learns from at start (sets/manifest.jsonl: the router's and the scope's training
# messages, the questions the query adapter learns from, PASTOR_ADAPTER_QUESTIONS); benches and tests stay out.
COPY datasets ./datasets

# A fixed numeric uid, so a bind-mounted data folder can be given to it on the host.
RUN useradd --create-home --uid 1000 pastor && mkdir -p /app/data && chown 1000:1000 /app/data
USER 1000:1000

EXPOSE 7860
# /live: the process answers (loading the corpus and building vectors happen after it).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/live' % os.environ.get('PASTOR_PORT', '7860'), timeout=4)"]
CMD ["python", "app.py"]
