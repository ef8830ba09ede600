# Pastor Online: CPU-only image. The Bible text is not baked in: mount it read-only at /app/corpus.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PASTOR_HOST=0.0.0.0 \
    PASTOR_PORT=7860 \
    PASTOR_DATA_DIR=/app/data \
    PASTOR_CORPUS=/app/corpus/por-almeida1911.usfx.xml

WORKDIR /app

# CPU wheel of torch first, from PyTorch's CPU index, so requirements.txt does not pull CUDA.
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY app.py ./
COPY pastor ./pastor
COPY corpus/docs ./corpus/docs

RUN useradd --create-home --uid 1000 pastor && mkdir -p /app/data && chown pastor /app/data
USER pastor

EXPOSE 7860
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD \
    python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:7860/live', timeout=4)"
CMD ["python", "app.py"]
