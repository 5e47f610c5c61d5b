"""Seeing attention: the trace of one translation, heatmaps, the tutorial figures, explain, the HTML viewer."""
