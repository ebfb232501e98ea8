"""Instance-id renders for view-point checks, drawing only the geometry that can occlude one object.

Which pixels of a frame show an object depends only on the geometry between the eye and the object, which lies
inside the box around both (and above the floor). `VisibilityRenderer` uploads the geometry near an object
once and draws, per candidate pose, only the triangles overlapping that pose's box into an id-only frame; the
object's mask is the same, pixel for pixel, as the full simulator render of the same camera (a test compares
them), at a fraction of its cost: llvmpipe's cost grows with the triangles and fragments it draws.
"""

from __future__ import annotations

from collections.abc import Iterator

import moderngl
import numpy as np
import trimesh

from tango.sim.render import create_gl_context, perspective
from tango.sim.scene import placed_meshes
from tango.types.scene import SceneObject

_NEAR_PLANE = 0.02
_FAR_PLANE = 100.0
_MARGIN_M = 0.01

_VERTEX_SHADER = """
#version 330
uniform mat4 clip_from_world;
in vec3 in_pos;
in int in_id;
flat out int v_id;
void main() {
    v_id = in_id;
    gl_Position = clip_from_world * vec4(in_pos, 1.0);
}
"""

_FRAGMENT_SHADER = """
#version 330
flat in int v_id;
layout(location = 0) out int out_id;
void main() {
    out_id = v_id;
}
"""

_VERTEX_DTYPE = np.dtype([("pos", "<f4", 3), ("id", "<i4")])


def scene_triangles(scene: trimesh.Scene) -> tuple[np.ndarray, np.ndarray]:
    """World-space triangles (T, 3, 3) and the instance id of each (T,), 0 for unannotated geometry."""
    parts, ids = [], []
    for item in placed_meshes(scene):
        vertices = trimesh.transform_points(np.asarray(item.mesh.vertices, dtype=np.float64), item.transform)
        triangles = vertices[np.asarray(item.mesh.faces)]
        parts.append(triangles)
        ids.append(np.full(len(triangles), item.instance_id, dtype=np.int32))
    if not parts:
        return np.zeros((0, 3, 3)), np.zeros(0, dtype=np.int32)
    return np.concatenate(parts), np.concatenate(ids)


class VisibilityRenderer:
    """Id-only frames of the geometry that can stand between an eye and an object: `masks(obj, poses)`.

    Its GL calls run with its context made current, as the simulator's `Renderer` does (tango/sim/render.py):
    moderngl draws in whichever context is current, and leaving another renderer's block makes none current."""

    def __init__(
        self,
        scene: trimesh.Scene,
        width: int,
        height: int,
        hfov_deg: float,
        floor_y: float,
        ctx: moderngl.Context | None = None,
    ) -> None:
        self.width, self.height = width, height
        triangles, ids = scene_triangles(scene)
        # Floor triangles never stand between an eye above the floor and a point on or above it.
        above_floor = triangles[:, :, 1].max(axis=1) > floor_y + _MARGIN_M
        self._triangles, self._ids = triangles[above_floor], ids[above_floor]
        self._lo = self._triangles.min(axis=1)
        self._hi = self._triangles.max(axis=1)
        self._owns_ctx = ctx is None
        self.ctx = create_gl_context() if ctx is None else ctx
        proj = perspective(hfov_deg, width, height, _NEAR_PLANE, _FAR_PLANE)
        proj[1, :] *= -1.0  # upside down, so that the first row read back is the image's top row
        self._proj = proj
        with self.ctx:
            self._program = self.ctx.program(vertex_shader=_VERTEX_SHADER, fragment_shader=_FRAGMENT_SHADER)
            self._ids_texture = self.ctx.texture((width, height), 1, dtype="i4")
            self._zbuffer = self.ctx.depth_renderbuffer((width, height))
            self._fbo = self.ctx.framebuffer([self._ids_texture], self._zbuffer)

    def masks(self, obj: SceneObject, poses: list[np.ndarray]) -> Iterator[np.ndarray]:
        """For each world-from-camera pose, the boolean mask of `obj`'s pixels in its instance-id frame.

        Each frame draws only the triangles that overlap the box around the eye and the object's bounding box:
        every other triangle lies outside the hull of the rays from the eye to the object, so cannot occlude it.
        """
        eyes = np.array([np.asarray(pose, dtype=np.float64)[:3, 3] for pose in poses]).reshape(-1, 3)
        box_lo = np.minimum(eyes, np.asarray(obj.bbox_min)) - _MARGIN_M
        box_hi = np.maximum(eyes, np.asarray(obj.bbox_max)) + _MARGIN_M
        near = np.flatnonzero(
            np.all(self._hi >= box_lo.min(axis=0), axis=1) & np.all(self._lo <= box_hi.max(axis=0), axis=1)
        )
        if len(near) == 0:
            for _ in poses:
                yield np.zeros((self.height, self.width), dtype=bool)
            return
        data = np.zeros(len(near) * 3, dtype=_VERTEX_DTYPE)
        data["pos"] = self._triangles[near].reshape(-1, 3)
        data["id"] = np.repeat(self._ids[near], 3)
        with self.ctx:
            vertices = self.ctx.buffer(data.tobytes())
            indices = self.ctx.buffer(reserve=len(near) * 3 * 4, dynamic=True)
            vao = self.ctx.vertex_array(
                self._program,
                [(vertices, "3f 1i", "in_pos", "in_id")],
                index_buffer=indices,
                index_element_size=4,
            )
        corners = np.arange(len(near) * 3, dtype=np.uint32).reshape(-1, 3)
        lo, hi = self._lo[near], self._hi[near]
        out = np.empty((self.height, self.width), dtype=np.int32)
        uniform = self._program["clip_from_world"]
        assert isinstance(uniform, moderngl.Uniform)
        try:
            for pose, eye_lo, eye_hi in zip(poses, box_lo, box_hi, strict=True):
                drawn = corners[np.all(hi >= eye_lo, axis=1) & np.all(lo <= eye_hi, axis=1)]
                view = np.linalg.inv(np.asarray(pose, dtype=np.float64))
                with self.ctx:  # not across the yield: the caller may draw in other contexts meanwhile
                    uniform.write((self._proj @ view).T.astype("f4").tobytes())
                    self._fbo.use()
                    self._fbo.clear(depth=1.0)
                    if len(drawn):
                        indices.write(drawn.tobytes())
                        self.ctx.enable(moderngl.DEPTH_TEST)
                        self.ctx.disable(moderngl.CULL_FACE)
                        vao.render(moderngl.TRIANGLES, vertices=drawn.size)
                    self._fbo.read_into(out, components=1, dtype="i4")
                yield out == obj.id
        finally:
            with self.ctx:
                vao.release()
                indices.release()
                vertices.release()

    def release(self) -> None:
        """Free the GL objects (and the context when this renderer created it)."""
        with self.ctx:
            self._fbo.release()
            self._ids_texture.release()
            self._zbuffer.release()
            self._program.release()
        if self._owns_ctx:
            self.ctx.release()
