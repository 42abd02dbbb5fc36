# source: https://github.com/EmileRouxSMB/D2IC/commit/049e40a1bd988d99c5b8ba2fc1b3b8b0b00a91a1
# expect: jit-in-loop-or-body at line 266
# runtime: COMPILES 6 CALLS 3
# why: run_dic defines a new J_wrapper closure over the frame's images on every call and wraps it in jit(J_wrapper) and jit(value_and_grad(J_wrapper)), so each frame of the sequence traces and compiles both again (6 compiles for 3 frames).
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")



import jax  # scaffolding: dic_JaxCore.py's import
import jax.numpy as jnp
from jax import lax, vmap  # scaffolding: dic_JaxCore.py's import
from types import SimpleNamespace  # scaffolding
import numpy as np


# ---- scaffolding: dm_pix is not installed; flat_nd_linear_interpolate(volume, coords) = bilinear lookup ----
def flat_nd_linear_interpolate(volume, coordinates):  # scaffolding
    return jax.scipy.ndimage.map_coordinates(volume, list(coordinates), order=1, mode="nearest")  # scaffolding


# ---- scaffolding: meshio is not installed; a 3x3-node (2x2 quad elements) mesh over a 24x24 image ----
def _tiny_quad_mesh():  # scaffolding
    xs = np.array([4.0, 12.0, 20.0])  # scaffolding
    pts = np.array([[x, y, 0.0] for y in xs for x in xs])  # scaffolding
    quads = np.array([[0, 1, 4, 3], [1, 2, 5, 4], [3, 4, 7, 6], [4, 5, 8, 7]])  # scaffolding
    return SimpleNamespace(points=pts, cells=[SimpleNamespace(type="quad", data=quads)])  # scaffolding


meshio = SimpleNamespace(read=lambda path: _tiny_quad_mesh())  # scaffolding


# ---- D2IC/dic_JaxCore.py (the functions run_dic uses) ----
from jax import jit
@jit
def residuals_pixelwise_core(displacement,
                             im1, im2,
                             pixel_coords,
                             pixel_nodes,
                             pixel_shapeN):
    """
    displacement : (Nnodes,2)
    im1, im2     : (H,W)
    pixel_coords : (Np,2)
    pixel_nodes  : (Np,4)
    pixel_shapeN : (Np,4)
    """
    disp = jnp.asarray(displacement)
    im1 = jnp.asarray(im1)
    im2 = jnp.asarray(im2)

    # (Np,4,1)
    shapeN = pixel_shapeN[..., None]

    # nodal displacements of the 4 nodes per pixel
    disp_local = disp[pixel_nodes]          # (Np,4,2)

    # u(x_p) = Σ_i N_i * u_i
    u_pix = (shapeN * disp_local).sum(axis=1)  # (Np,2)

    x_ref = pixel_coords                    # (Np,2)
    x_def = x_ref + u_pix                   # (Np,2)

    # image interpolation (note: im.T just like in the existing code)
    I1 = flat_nd_linear_interpolate(im1.T, x_ref.T)  # (Np,)
    I2 = flat_nd_linear_interpolate(im2.T, x_def.T)  # (Np,)

    return I2 - I1                           # (Np,)


@jit
def J_pixelwise_core(displacement,
                     im1, im2,
                     pixel_coords,
                     pixel_nodes,
                     pixel_shapeN):
    r = residuals_pixelwise_core(displacement,
                                 im1, im2,
                                 pixel_coords,
                                 pixel_nodes,
                                 pixel_shapeN)
    return 0.5 * jnp.mean(r**2)


@jax.jit
def reg_energy_spring_global(displacement,
                             node_neighbor_index,
                             node_neighbor_degree,
                             node_neighbor_weight):
    """
    Global "spring" energy:

      J_reg = 0.5 * Σ_{(i,j)} w_ij ||u_i - u_j||^2

    with w_ij coming from ``build_node_neighbor_dense`` (∼1/||x_i-x_j||).
    """
    u = displacement
    Nnodes, max_deg = node_neighbor_index.shape

    deg = node_neighbor_degree[:, None]
    idx_range = jnp.arange(max_deg)[None, :]
    mask = idx_range < deg

    neigh_ids = jnp.where(mask, node_neighbor_index, 0)
    w = jnp.where(mask, node_neighbor_weight, 0.0)        # (Nnodes,max_deg)

    u_i = u[:, None, :]
    u_j = u[neigh_ids]
    diff = jnp.where(mask[..., None], u_i - u_j, 0.0)     # (Nnodes,max_deg,2)
    sq = jnp.sum(diff**2, axis=2)                         # (Nnodes,max_deg)

    # same idea, simply weighted
    J_reg = 0.25 * jnp.sum(w * sq)
    return J_reg


# ---- D2IC/dic.py ----
from jax import jit, value_and_grad

class Dic():
    """Pixelwise DIC solver built on a quadrilateral mesh."""

    # API_CANDIDATE
    def __init__(self, mesh_path=""):
        """
        Initialize the solver by reading the mesh and basic geometry caches.

        Parameters
        ----------
        mesh_path : str
            Path to the Gmsh ``.msh`` file describing the ROI mesh.
        """
        self.mesh = None
        self.mesh_path = mesh_path
        self._read_mesh()
        self.binning = 1.
        self._image_shape = None
        self._roi_mask = None
        self._roi_flat_indices = None
    
    def __repr__(self):
        """String representation of the Dic object."""
        return f"Dic(mesh_path={self.mesh_path})"

    @property
    def node_coordinates(self):
        """Return nodal coordinates as a ``jax.numpy`` array."""
        return jnp.array(self.mesh.points) 
    
    @property
    def node_coordinates_binned(self):
        """Return nodal coordinates divided by the binning factor."""
        return jnp.array(self.mesh.points) / self.binning
    
    @property
    def element_conectivity(self):
        """Return quadrilateral connectivity as ``jax.numpy`` indices."""
        quad_blocks = []
        # meshio >=5 stores the blocks in ``cells``; concatenate all quad blocks.
        for cell_block in getattr(self.mesh, "cells", []):
            cell_type = getattr(cell_block, "type", "")
            if cell_type.startswith("quad"):
                quad_blocks.append(cell_block.data)
        if quad_blocks:
            conn = np.concatenate(quad_blocks, axis=0)
            return jnp.array(conn)
        # fallback for older meshio versions where quads were not concatenated
        cells_dict = getattr(self.mesh, "cells_dict", {})
        if isinstance(cells_dict, dict) and "quad" in cells_dict:
            return jnp.array(cells_dict["quad"])
        raise ValueError("No recognizable quadrilateral elements were found in the mesh.")


    def _read_mesh(self):
        """Charge le maillage depuis le disque via ``meshio``."""
        self.mesh = meshio.read(self.mesh_path)


    def run_dic(self, im1, im2,
                disp_guess=None,
                max_iter=50,
                tol=1e-3,
                reg_type="spring",
                alpha_reg=0.1):
        """
        Run global pixelwise DIC with optional Tikhonov regularization.

        Parameters
        ----------
        im1, im2 : array-like
            Reference and deformed images.
        disp_guess : array-like, optional
            Initial nodal displacement guess ``(Nnodes, 2)``.
        max_iter : int
            Maximum Conjugate Gradient iterations on the Gauss–Newton quadratic.
        tol : float
            Convergence tolerance on gradient norm.
        reg_type : {'none', 'laplace', 'spring'}
            Global regularization energy added to the image mismatch.
        alpha_reg : float
            Weight of the regularization term.

        Returns
        -------
        displacement : np.ndarray
            Optimized nodal displacement field.
        history : list of (J, ||grad||)
            Per-iteration objective and gradient norms.

        Notes
        -----
        Minimizes ``0.5 * ||I2(x+u) - I1(x)||^2`` with optional smoothness
        penalties (Laplace or spring-based) using a preconditioned CG loop on
        the normal equations.
        """
        nodes_coord = jnp.asarray(self.node_coordinates_binned[:, :2])

        if disp_guess is None:
            displacement = jnp.zeros_like(nodes_coord)
        else:
            # ⚠ if binning != 1 we might need to revisit this division by self.binning
            displacement = jnp.asarray(disp_guess) / self.binning

        im1 = jnp.asarray(im1)
        im2 = jnp.asarray(im2)

        if reg_type != "spring":
            raise ValueError(f"Unsupported reg_type '{reg_type}' (supported: 'spring').")

        def J_wrapper(disp):
            J_img = J_pixelwise_core(
                disp,
                im1, im2,
                self.pixel_coords_ref,
                self.pixel_nodes,
                self.pixel_shapeN,
            )
            if alpha_reg == 0.0:
                return J_img
            J_reg = reg_energy_spring_global(
                disp,
                self.node_neighbor_index,
                self.node_neighbor_degree,
                self.node_neighbor_weight,
            )
            return J_img + alpha_reg * J_reg

        J_wrapper_jit = jit(J_wrapper)
        J_val_and_grad = jit(value_and_grad(J_wrapper))


        # ---- CG initialization ----
        d = jnp.zeros_like(displacement)
        g_prev = jnp.zeros_like(displacement)
        first = True

        history = []

        for k in range(max_iter):
            J_val, g = J_val_and_grad(displacement)
            grad_norm = float(jnp.linalg.norm(g))
            J_val_float = float(J_val)
            history.append((J_val_float, grad_norm))

            print(f"[CG] iter {k:3d}  J={J_val_float:.4e}  ||g||={grad_norm:.3e}")

            # stopping criterion
            if grad_norm < tol:
                print(f"[CG] converged at iteration {k}, ||grad|| = {grad_norm:.3e}")
                break

            # ---- direction computation ----
            if first:
                d = -g
                first = False
            else:
                num = jnp.sum(g * (g - g_prev))
                den = jnp.sum(g_prev * g_prev) + 1e-16
                beta = jnp.maximum(num / den, 0.0)
                d = -g + beta * d

            # gradient·direction dot product
            gd = jnp.sum(g * d)

            # ⚠ restart when the direction is not descending
            if gd >= 0:
                d = -g
                gd = -jnp.sum(g * g)

            gd_float = float(gd)

            # ---- Armijo backtracking ----
            alpha = 1.0
            c = 1e-4

            for _ in range(10):
                new_disp = displacement + alpha * d
                J_new = float(J_wrapper_jit(new_disp))
                if J_new <= J_val_float + c * alpha * gd_float:
                    break
                alpha *= 0.5

            displacement = displacement + alpha * d
            g_prev = g

            print(f"        alpha={alpha:.3e}, J_new={J_new:.4e}")

        displacement = displacement * self.binning
        return displacement, history


def _scaffold_precompute(dic, H=24, W=24):  # scaffolding: stands in for Dic.precompute_pixel_data (needs skimage/matplotlib geometry helpers)
    nodes = np.asarray(dic.node_coordinates_binned[:, :2])  # scaffolding
    elems = np.asarray(dic.element_conectivity)  # scaffolding
    coords, pn, pN = [], [], []  # scaffolding
    for e in elems:  # scaffolding
        x0, y0 = nodes[e[0]]; x1, y1 = nodes[e[2]]  # scaffolding
        for yy in np.arange(y0, y1) + 0.5:  # scaffolding
            for xx in np.arange(x0, x1) + 0.5:  # scaffolding
                xi, eta = (xx - x0) / (x1 - x0), (yy - y0) / (y1 - y0)  # scaffolding
                coords.append([xx, yy]); pn.append(e)  # scaffolding
                pN.append([(1 - xi) * (1 - eta), xi * (1 - eta), xi * eta, (1 - xi) * eta])  # scaffolding
    dic.pixel_coords_ref = jnp.asarray(np.array(coords))  # scaffolding
    dic.pixel_nodes = jnp.asarray(np.array(pn))  # scaffolding
    dic.pixel_shapeN = jnp.asarray(np.array(pN))  # scaffolding
    n = nodes.shape[0]  # scaffolding
    nb = [[j for e in elems if i in e for j in e if j != i] for i in range(n)]  # scaffolding
    nb = [sorted(set(v)) for v in nb]  # scaffolding
    m = max(len(v) for v in nb)  # scaffolding
    dic.node_neighbor_index = jnp.asarray(np.array([v + [0] * (m - len(v)) for v in nb]))  # scaffolding
    dic.node_neighbor_degree = jnp.asarray(np.array([len(v) for v in nb]))  # scaffolding
    dic.node_neighbor_weight = jnp.asarray(np.array([[1.0] * len(v) + [0.0] * (m - len(v)) for v in nb]))  # scaffolding


# scaffolding: as in app_utils.run_dic_sequence, one global DIC solve per frame of a sequence
# (a smooth speckle-like reference image, each frame shifted a bit more)
yy, xx = np.mgrid[0:24, 0:24]  # scaffolding
def _frame(s):  # scaffolding
    return np.sin(0.6 * (xx - s)) * np.cos(0.5 * yy) + 0.5 * np.sin(0.3 * (xx - s) + 0.4 * yy)  # scaffolding
im_ref = _frame(0.0)  # scaffolding
dic = Dic(mesh_path="mesh.msh")  # scaffolding
_scaffold_precompute(dic)  # scaffolding
n_frames = 3  # scaffolding
try:  # scaffolding
    disp_k = None  # scaffolding
    for k in range(1, n_frames + 1):  # scaffolding
        disp_k, history_k = dic.run_dic(im_ref, _frame(0.3 * k), disp_guess=disp_k, max_iter=5, tol=1e-3, reg_type="spring", alpha_reg=0.1)  # scaffolding
        print("frame", k, "mean u_x", float(jnp.mean(disp_k[:, 0])))  # scaffolding
    _report({'jit(J_wrapper)'}, n_frames)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
