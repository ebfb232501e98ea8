"""Synthetic datasets in the published benchmark formats (ObjectNav-v1, HM3D-OVON, GOAT-Bench, OpenEQA).

`generate.generate_dataset` writes one; `default.ensure_default_dataset` keeps a cached default set.
"""
