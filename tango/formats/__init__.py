"""The benchmark file formats, each reader beside the writer of the same records: ObjectNav-v1 (`objectnav`,
with the records HM3D-OVON and GOAT-Bench share in `nav_episodes` and the split layout in `splits`), HM3D-OVON
(`ovon`), GOAT-Bench (`goat`), OpenEQA (`openeqa`), PointNav-v1 (`pointnav`); field-by-field reading and its
errors (`fields`), JSON writing (`records`) and the synthetic dataset folder (`synthetic`).

The data generator (tango.scenes.datasets) writes with these and the task loaders (tango.tasks) read with
them; this package imports neither, only the plain types and the basics.
"""
