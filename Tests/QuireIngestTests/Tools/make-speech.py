"""Makes a recording of known speech for the transcription tests.

usage: make-speech.py OUT.wav LENGTH TEXT@SECONDS ...

Each TEXT is spoken by espeak-ng and placed to start at SECONDS (`next`: 0.7 s after the one
before ends); the rest is silence (a faint hiss, as a real room has). LENGTH 0: the recording
ends a second after the last sentence. Prints, a line per sentence, where its sound really starts and ends
(the first and last sample above a threshold), in seconds.
"""
import os, random, subprocess, sys, tempfile, wave, array

out, length, parts = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
rate = 16000
random.seed(7)
samples = array.array("h")
end = 0
with tempfile.TemporaryDirectory() as tmp:
    for k, part in enumerate(parts):
        text, at = part.rsplit("@", 1)
        raw = os.path.join(tmp, "%d.wav" % k)
        subprocess.run(["espeak-ng", "-v", "en-us", "-s", "140", "-w", raw + ".22k.wav", text], check=True)
        subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-i", raw + ".22k.wav", "-ac", "1", "-ar", str(rate), raw], check=True)
        with wave.open(raw) as w:
            speech = array.array("h", w.readframes(w.getnframes()))
        loud = [i for i, s in enumerate(speech) if abs(s) > 800]
        start = int(float(at) * rate) if at != "next" else end + int(0.7 * rate) - loud[0]
        need = start + len(speech) - len(samples)
        if need > 0:
            samples.extend(random.randint(-40, 40) for _ in range(need))
        for i, s in enumerate(speech):
            samples[start + i] = s
        end = start + loud[-1]
        print("%.3f %.3f" % ((start + loud[0]) / rate, (start + loud[-1]) / rate))
total = int(length * rate) if length > 0 else end + rate
if total > len(samples):
    samples.extend(random.randint(-40, 40) for _ in range(total - len(samples)))
del samples[total:]
with wave.open(out, "wb") as w:
    w.setnchannels(1)
    w.setsampwidth(2)
    w.setframerate(rate)
    w.writeframes(samples.tobytes())
