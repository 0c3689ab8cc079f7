#!/usr/bin/env python3
# Reads a PNG (8-bit RGB or RGBA, as chromium writes) with the standard library alone and prints its
# size, how many colours a sample of its pixels holds, the most common one (the background), and
# the share of sampled pixels that are not the background ("ink"). The report test uses it.
import sys, zlib, struct, json
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
pos, idat, w = 8, b'', 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos+8]); body = data[pos+8:pos+8+n]; pos += 12 + n
    if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
    elif kind == b'IDAT': idat += body
raw = zlib.decompress(idat); bpp = {2: 3, 6: 4}[ctype]; stride = w * bpp
prev = bytearray(stride); colors = {}; pos = 0
for y in range(h):
    f = raw[pos]; line = bytearray(raw[pos+1:pos+1+stride]); pos += 1 + stride
    if f == 1:
        for i in range(bpp, stride): line[i] = (line[i] + line[i-bpp]) & 255
    elif f == 2:
        line = bytearray((a + b) & 255 for a, b in zip(line, prev))
    elif f == 3:
        for i in range(stride): line[i] = (line[i] + ((line[i-bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
    elif f == 4:
        for i in range(stride):
            a = line[i-bpp] if i >= bpp else 0; b = prev[i]; c = prev[i-bpp] if i >= bpp else 0
            p = a + b - c; pa, pb, pc = abs(p-a), abs(p-b), abs(p-c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        for x in range(0, stride, bpp * 2): colors[bytes(line[x:x+3])] = colors.get(bytes(line[x:x+3]), 0) + 1
    prev = line
background, count = max(colors.items(), key=lambda kv: kv[1])
total = sum(colors.values())
print(json.dumps({"width": w, "height": h, "colors": len(colors), "background": list(background), "ink": 1 - count / total}))
