"""The local control API that `autoresearch serve` offers beside the chart (FastAPI, served by uvicorn)."""
