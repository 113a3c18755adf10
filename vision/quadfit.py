"""Kept only for vision/track.py's `iou` until its owner imports it from vision.locate.geometry."""

from vision.locate.geometry import iou

__all__ = ["iou"]
