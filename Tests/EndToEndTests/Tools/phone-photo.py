#!/usr/bin/env python3
"""A phone's photo of a slide on a screen, made from the slide's image, the same every run.

    phone-photo.py SLIDE.png OUT.jpg [mild|hard]

The slide is put on a dark surround (the screen's bezel and the room), seen from off its axis (a
perspective that turns it a few degrees and narrows its far side), lit unevenly (brighter at one
corner, a vignette), blurred as a hand-held shot is, given the sensor's grain and saved as a JPEG
at a phone's quality. `mild` is a careful shot, `hard` one from the side of the room.
"""
import sys

import numpy as np
from PIL import Image, ImageFilter

SETTINGS = {
    "mild": dict(turn=0.035, keystone=0.04, blur=1.0, light=0.25, grain=5.0, quality=82, width=1600),
    "hard": dict(turn=0.07, keystone=0.10, blur=1.6, light=0.45, grain=9.0, quality=70, width=1200),
}


def coefficients(source, target):
    """The perspective transform mapping `target` corners to `source` corners (PIL's convention)."""
    rows = []
    for (x, y), (u, v) in zip(target, source):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    a = np.array(rows, dtype=float)
    b = np.array([c for point in source for c in point], dtype=float)
    return np.linalg.solve(a, b).tolist()


def main():
    slide_path, out_path = sys.argv[1], sys.argv[2]
    s = SETTINGS[sys.argv[3] if len(sys.argv) > 3 else "mild"]
    rng = np.random.default_rng(20261128)
    slide = Image.open(slide_path).convert("RGB")
    w, h = slide.size
    # The screen: the slide with a bezel, on a room's dark surround.
    pad = int(0.12 * w)
    canvas = Image.new("RGB", (w + 2 * pad, h + 2 * pad), (38, 36, 40))
    canvas.paste(Image.new("RGB", (w + pad // 3, h + pad // 3), (12, 12, 14)), (pad - pad // 6, pad - pad // 6))
    canvas.paste(slide, (pad, pad))
    W, H = canvas.size
    # Seen off axis: the slide's corners moved (turned, its right side farther away).
    cx, cy = W / 2, H / 2
    corners = [(pad, pad), (pad + w, pad), (pad + w, pad + h), (pad, pad + h)]
    moved = []
    for x, y in corners:
        dx, dy = x - cx, y - cy
        rx = dx * np.cos(s["turn"]) - dy * np.sin(s["turn"])
        ry = dx * np.sin(s["turn"]) + dy * np.cos(s["turn"])
        far = (x - pad) / w
        ry *= 1 - s["keystone"] * far
        rx *= 1 - s["keystone"] * 0.5 * far
        moved.append((cx + rx, cy + ry))
    photo = canvas.transform((W, H), Image.PERSPECTIVE, coefficients(corners, moved), Image.BICUBIC, fillcolor=(38, 36, 40))
    photo = photo.filter(ImageFilter.GaussianBlur(s["blur"]))
    a = np.asarray(photo).astype(float)
    # Uneven light: brighter towards the top left, darker at the corners.
    yy, xx = np.mgrid[0:H, 0:W]
    gradient = 1 - s["light"] * (0.6 * xx / W + 0.4 * yy / H)
    vignette = 1 - 0.25 * (((xx - cx) / cx) ** 2 + ((yy - cy) / cy) ** 2) / 2
    a = a * (gradient * vignette)[..., None]
    a += rng.normal(0, s["grain"], a.shape)
    photo = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    photo = photo.resize((s["width"], int(s["width"] * H / W)), Image.LANCZOS)
    photo.save(out_path, quality=s["quality"])


if __name__ == "__main__":
    main()
