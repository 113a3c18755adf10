"""Seeing the table: locate cards, warp them upright, classify them."""

import cv2

# OpenCV hands Canny to Intel IPP when it runs on one thread, and IPP's Canny corrupts the heap on
# some frames (a blurred gingham thumbnail: "double free or corruption", reproduced with
# opencv-python-headless 5.0.0 and 4.14.0; tests/vision/test_bad_input.py keeps that frame's case).
# OpenCV's own code gives the same edges at about 5% more time per frame.
cv2.ipp.setUseIPP(False)
