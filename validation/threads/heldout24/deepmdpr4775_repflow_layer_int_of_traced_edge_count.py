# source: https://github.com/deepmodeling/deepmd-kit/pull/4775
# expect: trace-time-error at line 333
# runtime: ERROR ConcretizationTypeError
# why: RepFlowLayer.call counts the edges with int(xp.sum(nlist_mask)) on every call, although the count is only needed for dynamic selection; under the JAX backend's jit nlist_mask is traced, so int() raises ConcretizationTypeError.
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


# deepmd/dpmodel/descriptor/repflows.py (RepFlowLayer.call, list_update*) and the helpers it uses
# from deepmd/dpmodel/descriptor/repformers.py, before PR #4775 (2018d621c^), flattened
import jax
import jax.numpy as jnp
import numpy as np


class array_api_compat:  # scaffolding: stand-in for the array_api_compat package (jax arrays -> jax.numpy)
    @staticmethod  # scaffolding
    def array_namespace(*arrays):  # scaffolding
        return jnp  # scaffolding


def xp_take_along_axis(arr, indices, axis):  # scaffolding: deepmd.dpmodel.array_api helper, jax branch
    return jnp.take_along_axis(arr, indices, axis=axis)  # scaffolding


def aggregate(*args, **kwargs):  # scaffolding: deepmd.dpmodel.utils.network.aggregate (dynamic-sel branch only, not reached)
    raise NotImplementedError  # scaffolding


class NativeOP:  # scaffolding: stand-in for deepmd.dpmodel.NativeOP
    pass  # scaffolding


class NativeLayer:  # scaffolding: stand-in for deepmd.dpmodel.utils.network.NativeLayer (linear layer)
    def __init__(self, num_in, num_out, seed):  # scaffolding
        rng = np.random.default_rng(seed)  # scaffolding
        self.w = jnp.asarray(rng.normal(size=(num_in, num_out)) / np.sqrt(num_in), jnp.float32)  # scaffolding
        self.b = jnp.zeros((num_out,), jnp.float32)  # scaffolding

    def __call__(self, x):  # scaffolding
        return x @ self.w + self.b  # scaffolding


def _make_nei_g1(
    g1_ext: np.ndarray,
    nlist: np.ndarray,
) -> np.ndarray:
    """
    Make neighbor-wise atomic invariant rep.

    Parameters
    ----------
    g1_ext
        Extended atomic invariant rep, with shape [nf, nall, ng1].
    nlist
        Neighbor list, with shape [nf, nloc, nnei].

    Returns
    -------
    gg1: np.ndarray
        Neighbor-wise atomic invariant rep, with shape [nf, nloc, nnei, ng1].
    """
    xp = array_api_compat.array_namespace(g1_ext, nlist)
    # nlist: nf x nloc x nnei
    nf, nloc, nnei = nlist.shape
    # g1_ext: nf x nall x ng1
    ng1 = g1_ext.shape[-1]
    # index: nf x (nloc x nnei) x ng1
    index = xp.tile(xp.reshape(nlist, (nf, nloc * nnei, 1)), (1, 1, ng1))
    # gg1  : nf x (nloc x nnei) x ng1
    gg1 = xp_take_along_axis(g1_ext, index, axis=1)
    # gg1  : nf x nloc x nnei x ng1
    gg1 = xp.reshape(gg1, (nf, nloc, nnei, ng1))
    return gg1


def _apply_nlist_mask(
    gg: np.ndarray,
    nlist_mask: np.ndarray,
) -> np.ndarray:
    """
    Apply nlist mask to neighbor-wise rep tensors.

    Parameters
    ----------
    gg
        Neighbor-wise rep tensors, with shape [nf, nloc, nnei, d].
    nlist_mask
        Neighbor list mask, where zero means no neighbor, with shape [nf, nloc, nnei].
    """
    xp = array_api_compat.array_namespace(gg, nlist_mask)
    masked_gg = xp.where(nlist_mask[:, :, :, None], gg, xp.zeros_like(gg))
    return masked_gg


def _apply_switch(gg: np.ndarray, sw: np.ndarray) -> np.ndarray:
    """
    Apply switch function to neighbor-wise rep tensors.

    Parameters
    ----------
    gg
        Neighbor-wise rep tensors, with shape [nf, nloc, nnei, d].
    sw
        The switch function, which equals 1 within the rcut_smth range, smoothly decays from 1 to 0 between rcut_smth and rcut,
        and remains 0 beyond rcut, with shape [nf, nloc, nnei].
    """
    # gg: nf x nloc x nnei x d
    # sw: nf x nloc x nnei
    return gg * sw[:, :, :, None]


def _cal_hg(
    g: np.ndarray,
    h: np.ndarray,
    nlist_mask: np.ndarray,
    sw: np.ndarray,
    smooth: bool = True,
    epsilon: float = 1e-4,
    use_sqrt_nnei: bool = True,
) -> np.ndarray:
    """
    Calculate the transposed rotation matrix.

    Parameters
    ----------
    g
        Neighbor-wise/Pair-wise invariant rep tensors, with shape [nf, nloc, nnei, ng].
    h
        Neighbor-wise/Pair-wise equivariant rep tensors, with shape [nf, nloc, nnei, 3].
    nlist_mask
        Neighbor list mask, where zero means no neighbor, with shape [nf, nloc, nnei].
    sw
        The switch function, which equals 1 within the rcut_smth range, smoothly decays from 1 to 0 between rcut_smth and rcut,
        and remains 0 beyond rcut, with shape [nf, nloc, nnei].
    smooth
        Whether to use smoothness in processes such as attention weights calculation.
    epsilon
        Protection of 1./nnei.
    use_sqrt_nnei : bool, optional
        Whether to use the square root of the number of neighbors for symmetrization_op normalization instead of using the number of neighbors directly.

    Returns
    -------
    hg
        The transposed rotation matrix, with shape [nf, nloc, 3, ng].
    """
    xp = array_api_compat.array_namespace(g, h, nlist_mask, sw)
    # g: nf x nloc x nnei x ng
    # h: nf x nloc x nnei x 3
    # msk: nf x nloc x nnei
    nf, nloc, nnei, _ = g.shape
    ng = g.shape[-1]
    # nf x nloc x nnei x ng
    g = _apply_nlist_mask(g, nlist_mask)
    if not smooth:
        # nf x nloc
        if not use_sqrt_nnei:
            invnnei = 1.0 / (epsilon + xp.sum(xp.astype(nlist_mask, g.dtype), axis=-1))
        else:
            invnnei = 1.0 / (
                epsilon + xp.sqrt(xp.sum(xp.astype(nlist_mask, g.dtype), axis=-1))
            )
        # nf x nloc x 1 x 1
        invnnei = invnnei[:, :, xp.newaxis, xp.newaxis]
    else:
        g = _apply_switch(g, sw)
        if not use_sqrt_nnei:
            invnnei = (1.0 / float(nnei)) * xp.ones((nf, nloc, 1, 1), dtype=g.dtype)
        else:
            invnnei = (1.0 / (float(nnei) ** 0.5)) * xp.ones(
                (nf, nloc, 1, 1), dtype=g.dtype
            )
    # nf x nloc x 3 x ng
    hg = xp.matmul(xp.matrix_transpose(h), g) * invnnei
    return hg


def _cal_grrg(hg: np.ndarray, axis_neuron: int) -> np.ndarray:
    """
    Calculate the atomic invariant rep.

    Parameters
    ----------
    hg
        The transposed rotation matrix, with shape [nf, nloc, 3, ng].
    axis_neuron
        Size of the submatrix.

    Returns
    -------
    grrg
        Atomic invariant rep, with shape [nf, nloc, (axis_neuron * ng)].
    """
    xp = array_api_compat.array_namespace(hg)
    # nf x nloc x 3 x ng
    nf, nloc, _, ng = hg.shape
    # nf x nloc x 3 x axis
    hgm = hg[..., :axis_neuron]
    # nf x nloc x axis_neuron x ng
    grrg = xp.matmul(xp.matrix_transpose(hgm), hg) / (3.0**1)
    # nf x nloc x (axis_neuron * ng)
    grrg = xp.reshape(grrg, (nf, nloc, axis_neuron * ng))
    return grrg


def symmetrization_op(
    g: np.ndarray,
    h: np.ndarray,
    nlist_mask: np.ndarray,
    sw: np.ndarray,
    axis_neuron: int,
    smooth: bool = True,
    epsilon: float = 1e-4,
    use_sqrt_nnei: bool = True,
) -> np.ndarray:
    """
    Symmetrization operator to obtain atomic invariant rep.

    Parameters
    ----------
    g
        Neighbor-wise/Pair-wise invariant rep tensors, with shape [nf, nloc, nnei, ng].
    h
        Neighbor-wise/Pair-wise equivariant rep tensors, with shape [nf, nloc, nnei, 3].
    nlist_mask
        Neighbor list mask, where zero means no neighbor, with shape [nf, nloc, nnei].
    sw
        The switch function, which equals 1 within the rcut_smth range, smoothly decays from 1 to 0 between rcut_smth and rcut,
        and remains 0 beyond rcut, with shape [nf, nloc, nnei].
    axis_neuron
        Size of the submatrix.
    smooth
        Whether to use smoothness in processes such as attention weights calculation.
    epsilon
        Protection of 1./nnei.
    use_sqrt_nnei : bool, optional
        Whether to use the square root of the number of neighbors for symmetrization_op normalization instead of using the number of neighbors directly.

    Returns
    -------
    grrg
        Atomic invariant rep, with shape [nf, nloc, (axis_neuron * ng)].
    """
    # g: nf x nloc x nnei x ng
    # h: nf x nloc x nnei x 3
    # msk: nf x nloc x nnei
    nf, nloc, nnei, _ = g.shape
    # nf x nloc x 3 x ng
    hg = _cal_hg(
        g,
        h,
        nlist_mask,
        sw,
        smooth=smooth,
        epsilon=epsilon,
        use_sqrt_nnei=use_sqrt_nnei,
    )
    # nf x nloc x (axis_neuron x ng)
    grrg = _cal_grrg(hg, axis_neuron)
    return grrg


class RepFlowLayer(NativeOP):
    def __init__(self, n_dim, e_dim, a_dim, e_sel, a_sel, axis_neuron):  # scaffolding: only the fields call() reads, DPA-3 defaults (no dynamic sel, no optim_update, no angle update)
        self.n_dim = n_dim  # scaffolding
        self.e_dim = e_dim  # scaffolding
        self.a_dim = a_dim  # scaffolding
        self.nnei = e_sel  # scaffolding
        self.a_sel = a_sel  # scaffolding
        self.axis_neuron = axis_neuron  # scaffolding
        self.use_dynamic_sel = False  # scaffolding
        self.optim_update = False  # scaffolding
        self.update_angle = False  # scaffolding
        self.n_multi_edge_message = 1  # scaffolding
        self.update_style = "res_avg"  # scaffolding
        self.act = jax.nn.silu  # scaffolding: get_activation_fn("silu")
        self.node_self_mlp = NativeLayer(n_dim, n_dim, 1)  # scaffolding
        self.node_sym_linear = NativeLayer(n_dim * axis_neuron + e_dim * axis_neuron, n_dim, 2)  # scaffolding: n_sym_dim
        self.node_edge_linear = NativeLayer(2 * n_dim + e_dim, n_dim, 3)  # scaffolding
        self.edge_self_linear = NativeLayer(2 * n_dim + e_dim, e_dim, 4)  # scaffolding

    def call(
        self,
        node_ebd_ext: np.ndarray,  # nf x nall x n_dim
        edge_ebd: np.ndarray,  # nf x nloc x nnei x e_dim
        h2: np.ndarray,  # nf x nloc x nnei x 3
        angle_ebd: np.ndarray,  # nf x nloc x a_nnei x a_nnei x a_dim
        nlist: np.ndarray,  # nf x nloc x nnei
        nlist_mask: np.ndarray,  # nf x nloc x nnei
        sw: np.ndarray,  # switch func, nf x nloc x nnei
        a_nlist: np.ndarray,  # nf x nloc x a_nnei
        a_nlist_mask: np.ndarray,  # nf x nloc x a_nnei
        a_sw: np.ndarray,  # switch func, nf x nloc x a_nnei
        edge_index: np.ndarray,  # n_edge x 2
        angle_index: np.ndarray,  # n_angle x 3
    ):
        """Update node, edge and angle embeddings (docstring shortened)."""
        xp = array_api_compat.array_namespace(
            node_ebd_ext,
            edge_ebd,
            h2,
            angle_ebd,
            nlist,
            nlist_mask,
            sw,
            a_nlist,
            a_nlist_mask,
            a_sw,
            edge_index,
            angle_index,
        )
        nb, nloc, nnei = nlist.shape
        nall = node_ebd_ext.shape[1]
        n_edge = int(xp.sum(xp.astype(nlist_mask, xp.int32)))
        node_ebd = node_ebd_ext[:, :nloc, :]
        assert (nb, nloc) == node_ebd.shape[:2]
        if not self.use_dynamic_sel:
            assert (nb, nloc, nnei) == h2.shape[:3]
        else:
            assert (n_edge, 3) == h2.shape
        del a_nlist  # may be used in the future

        n2e_index, n_ext2e_index = edge_index[:, 0], edge_index[:, 1]
        n2a_index, eij2a_index, eik2a_index = (
            angle_index[:, 0],
            angle_index[:, 1],
            angle_index[:, 2],
        )

        # nb x nloc x nnei x n_dim [OR] n_edge x n_dim
        nei_node_ebd = (
            _make_nei_g1(node_ebd_ext, nlist)
            if not self.use_dynamic_sel
            else xp.take(
                xp.reshape(node_ebd_ext, (-1, self.n_dim)), n_ext2e_index, axis=0
            )
        )

        n_update_list: list[np.ndarray] = [node_ebd]
        e_update_list: list[np.ndarray] = [edge_ebd]
        a_update_list: list[np.ndarray] = [angle_ebd]

        # node self mlp
        node_self_mlp = self.act(self.node_self_mlp(node_ebd))
        n_update_list.append(node_self_mlp)

        # node sym (grrg + drrd)
        node_sym_list: list[np.ndarray] = []
        node_sym_list.append(
            symmetrization_op(
                edge_ebd,
                h2,
                nlist_mask,
                sw,
                self.axis_neuron,
            )
            if not self.use_dynamic_sel
            else symmetrization_op_dynamic(
                edge_ebd,
                h2,
                sw,
                owner=n2e_index,
                num_owner=nb * nloc,
                nb=nb,
                nloc=nloc,
                scale_factor=self.dynamic_e_sel ** (-0.5),
                axis_neuron=self.axis_neuron,
            )
        )
        node_sym_list.append(
            symmetrization_op(
                nei_node_ebd,
                h2,
                nlist_mask,
                sw,
                self.axis_neuron,
            )
            if not self.use_dynamic_sel
            else symmetrization_op_dynamic(
                nei_node_ebd,
                h2,
                sw,
                owner=n2e_index,
                num_owner=nb * nloc,
                nb=nb,
                nloc=nloc,
                scale_factor=self.dynamic_e_sel ** (-0.5),
                axis_neuron=self.axis_neuron,
            )
        )
        node_sym = self.act(self.node_sym_linear(xp.concat(node_sym_list, axis=-1)))
        n_update_list.append(node_sym)

        if not self.optim_update:
            if not self.use_dynamic_sel:
                # nb x nloc x nnei x (n_dim * 2 + e_dim)
                edge_info = xp.concat(
                    [
                        xp.tile(
                            xp.reshape(node_ebd, (nb, nloc, 1, self.n_dim)),
                            (1, 1, self.nnei, 1),
                        ),
                        nei_node_ebd,
                        edge_ebd,
                    ],
                    axis=-1,
                )
            else:
                # n_edge x (n_dim * 2 + e_dim)
                edge_info = xp.concat(
                    [
                        xp.take(
                            xp.reshape(node_ebd, (-1, self.n_dim)),
                            n2e_index,
                            axis=0,
                        ),
                        nei_node_ebd,
                        edge_ebd,
                    ],
                    axis=-1,
                )
        else:
            edge_info = None

        # node edge message
        # nb x nloc x nnei x (h * n_dim)
        if not self.optim_update:
            assert edge_info is not None
            node_edge_update = self.act(
                self.node_edge_linear(edge_info)
            ) * xp.expand_dims(sw, axis=-1)
        else:
            node_edge_update = self.act(
                self.optim_edge_update(
                    node_ebd,
                    node_ebd_ext,
                    edge_ebd,
                    nlist,
                    "node",
                )
                if not self.use_dynamic_sel
                else self.optim_edge_update_dynamic(
                    node_ebd,
                    node_ebd_ext,
                    edge_ebd,
                    n2e_index,
                    n_ext2e_index,
                    "node",
                )
            ) * xp.expand_dims(sw, axis=-1)

        node_edge_update = (
            (xp.sum(node_edge_update, axis=-2) / self.nnei)
            if not self.use_dynamic_sel
            else (
                xp.reshape(
                    aggregate(
                        node_edge_update,
                        n2e_index,
                        average=False,
                        num_owner=nb * nloc,
                    ),
                    (nb, nloc, node_edge_update.shape[-1]),
                )
                / self.dynamic_e_sel
            )
        )
        if self.n_multi_edge_message > 1:
            # nb x nloc x h x n_dim
            node_edge_update_mul_head = xp.reshape(
                node_edge_update, (nb, nloc, self.n_multi_edge_message, self.n_dim)
            )
            for head_index in range(self.n_multi_edge_message):
                n_update_list.append(node_edge_update_mul_head[:, :, head_index, :])
        else:
            n_update_list.append(node_edge_update)
        # update node_ebd
        n_updated = self.list_update(n_update_list, "node")

        # edge self message
        if not self.optim_update:
            assert edge_info is not None
            edge_self_update = self.act(self.edge_self_linear(edge_info))
        else:
            edge_self_update = self.act(
                self.optim_edge_update(
                    node_ebd,
                    node_ebd_ext,
                    edge_ebd,
                    nlist,
                    "edge",
                )
                if not self.use_dynamic_sel
                else self.optim_edge_update_dynamic(
                    node_ebd,
                    node_ebd_ext,
                    edge_ebd,
                    n2e_index,
                    n_ext2e_index,
                    "edge",
                )
            )
        e_update_list.append(edge_self_update)

        if self.update_angle:
            assert self.angle_self_linear is not None
            assert self.edge_angle_linear1 is not None
            assert self.edge_angle_linear2 is not None
            # get angle info
            if self.a_compress_rate != 0:
                if not self.a_compress_use_split:
                    assert self.a_compress_n_linear is not None
                    assert self.a_compress_e_linear is not None
                    node_ebd_for_angle = self.a_compress_n_linear(node_ebd)
                    edge_ebd_for_angle = self.a_compress_e_linear(edge_ebd)
                else:
                    # use the first a_compress_dim dim for node and edge
                    node_ebd_for_angle = node_ebd[..., : self.n_a_compress_dim]
                    edge_ebd_for_angle = edge_ebd[..., : self.e_a_compress_dim]
            else:
                node_ebd_for_angle = node_ebd
                edge_ebd_for_angle = edge_ebd

            if not self.use_dynamic_sel:
                # nb x nloc x a_nnei x e_dim
                edge_ebd_for_angle = edge_ebd_for_angle[..., : self.a_sel, :]
                # nb x nloc x a_nnei x e_dim
                edge_ebd_for_angle = xp.where(
                    xp.expand_dims(a_nlist_mask, axis=-1),
                    edge_ebd_for_angle,
                    xp.zeros_like(edge_ebd_for_angle),
                )
            if not self.optim_update:
                # nb x nloc x a_nnei x a_nnei x n_dim [OR] n_angle x n_dim
                node_for_angle_info = (
                    xp.tile(
                        xp.reshape(
                            node_ebd_for_angle, (nb, nloc, 1, 1, self.n_a_compress_dim)
                        ),
                        (1, 1, self.a_sel, self.a_sel, 1),
                    )
                    if not self.use_dynamic_sel
                    else xp.take(
                        xp.reshape(node_ebd_for_angle, (-1, self.n_a_compress_dim)),
                        n2a_index,
                        axis=0,
                    )
                )

                # nb x nloc x (a_nnei) x a_nnei x e_dim [OR] n_angle x e_dim
                edge_for_angle_k = (
                    xp.tile(
                        xp.reshape(
                            edge_ebd_for_angle,
                            (nb, nloc, 1, self.a_sel, self.e_a_compress_dim),
                        ),
                        (1, 1, self.a_sel, 1, 1),
                    )
                    if not self.use_dynamic_sel
                    else xp.take(
                        edge_ebd_for_angle,
                        eik2a_index,
                        axis=0,
                    )
                )
                # nb x nloc x a_nnei x (a_nnei) x e_dim
                edge_for_angle_j = (
                    xp.tile(
                        xp.reshape(
                            edge_ebd_for_angle,
                            (nb, nloc, self.a_sel, 1, self.e_a_compress_dim),
                        ),
                        (1, 1, 1, self.a_sel, 1),
                    )
                    if not self.use_dynamic_sel
                    else xp.take(
                        edge_ebd_for_angle,
                        eij2a_index,
                        axis=0,
                    )
                )
                # nb x nloc x a_nnei x a_nnei x (e_dim + e_dim)
                edge_for_angle_info = xp.concat(
                    [edge_for_angle_k, edge_for_angle_j], axis=-1
                )
                angle_info_list = [angle_ebd]
                angle_info_list.append(node_for_angle_info)
                angle_info_list.append(edge_for_angle_info)
                # nb x nloc x a_nnei x a_nnei x (a + n_dim + e_dim*2) or (a + a/c + a/c)
                # [OR]
                # n_angle x (a + n_dim + e_dim*2) or (a + a/c + a/c)
                angle_info = xp.concat(angle_info_list, axis=-1)
            else:
                angle_info = None

            # edge angle message
            # nb x nloc x a_nnei x a_nnei x e_dim [OR] n_angle x e_dim
            if not self.optim_update:
                assert angle_info is not None
                edge_angle_update = self.act(self.edge_angle_linear1(angle_info))
            else:
                edge_angle_update = self.act(
                    self.optim_angle_update(
                        angle_ebd,
                        node_ebd_for_angle,
                        edge_ebd_for_angle,
                        "edge",
                    )
                    if not self.use_dynamic_sel
                    else self.optim_angle_update_dynamic(
                        angle_ebd,
                        node_ebd_for_angle,
                        edge_ebd_for_angle,
                        n2a_index,
                        eij2a_index,
                        eik2a_index,
                        "edge",
                    )
                )
            if not self.use_dynamic_sel:
                # nb x nloc x a_nnei x a_nnei x e_dim
                weighted_edge_angle_update = (
                    a_sw[:, :, :, xp.newaxis, xp.newaxis]
                    * a_sw[:, :, xp.newaxis, :, xp.newaxis]
                    * edge_angle_update
                )
                # nb x nloc x a_nnei x e_dim
                reduced_edge_angle_update = xp.sum(
                    weighted_edge_angle_update, axis=-2
                ) / (self.a_sel**0.5)
                # nb x nloc x nnei x e_dim
                padding_edge_angle_update = xp.concat(
                    [
                        reduced_edge_angle_update,
                        xp.zeros(
                            (nb, nloc, self.nnei - self.a_sel, self.e_dim),
                            dtype=edge_ebd.dtype,
                        ),
                    ],
                    axis=2,
                )
            else:
                # n_angle x e_dim
                weighted_edge_angle_update = edge_angle_update * xp.expand_dims(
                    a_sw, axis=-1
                )
                # n_edge x e_dim
                padding_edge_angle_update = aggregate(
                    weighted_edge_angle_update,
                    eij2a_index,
                    average=False,
                    num_owner=n_edge,
                ) / (self.dynamic_a_sel**0.5)

            if not self.smooth_edge_update:
                # will be deprecated in the future
                # not support dynamic index, will pass anyway
                if self.use_dynamic_sel:
                    raise NotImplementedError(
                        "smooth_edge_update must be True when use_dynamic_sel is True!"
                    )
                full_mask = xp.concat(
                    [
                        a_nlist_mask,
                        xp.zeros(
                            (nb, nloc, self.nnei - self.a_sel),
                            dtype=a_nlist_mask.dtype,
                        ),
                    ],
                    axis=-1,
                )
                padding_edge_angle_update = xp.where(
                    xp.expand_dims(full_mask, axis=-1),
                    padding_edge_angle_update,
                    edge_ebd,
                )
            e_update_list.append(
                self.act(self.edge_angle_linear2(padding_edge_angle_update))
            )
            # update edge_ebd
            e_updated = self.list_update(e_update_list, "edge")

            # angle self message
            # nb x nloc x a_nnei x a_nnei x dim_a
            if not self.optim_update:
                assert angle_info is not None
                angle_self_update = self.act(self.angle_self_linear(angle_info))
            else:
                angle_self_update = self.act(
                    self.optim_angle_update(
                        angle_ebd,
                        node_ebd_for_angle,
                        edge_ebd_for_angle,
                        "angle",
                    )
                    if not self.use_dynamic_sel
                    else self.optim_angle_update_dynamic(
                        angle_ebd,
                        node_ebd_for_angle,
                        edge_ebd_for_angle,
                        n2a_index,
                        eij2a_index,
                        eik2a_index,
                        "angle",
                    )
                )
            a_update_list.append(angle_self_update)
        else:
            # update edge_ebd
            e_updated = self.list_update(e_update_list, "edge")

        # update angle_ebd
        a_updated = self.list_update(a_update_list, "angle")
        return n_updated, e_updated, a_updated

    def list_update_res_avg(
        self,
        update_list: list[np.ndarray],
    ) -> np.ndarray:
        nitem = len(update_list)
        uu = update_list[0]
        for ii in range(1, nitem):
            uu = uu + update_list[ii]
        return uu / (float(nitem) ** 0.5)

    def list_update_res_incr(self, update_list: list[np.ndarray]) -> np.ndarray:
        nitem = len(update_list)
        uu = update_list[0]
        scale = 1.0 / (float(nitem - 1) ** 0.5) if nitem > 1 else 0.0
        for ii in range(1, nitem):
            uu = uu + scale * update_list[ii]
        return uu

    def list_update_res_residual(
        self, update_list: list[np.ndarray], update_name: str = "node"
    ) -> np.ndarray:
        nitem = len(update_list)
        uu = update_list[0]
        if update_name == "node":
            for ii, vv in enumerate(self.n_residual):
                uu = uu + vv * update_list[ii + 1]
        elif update_name == "edge":
            for ii, vv in enumerate(self.e_residual):
                uu = uu + vv * update_list[ii + 1]
        elif update_name == "angle":
            for ii, vv in enumerate(self.a_residual):
                uu = uu + vv * update_list[ii + 1]
        else:
            raise NotImplementedError
        return uu

    def list_update(
        self, update_list: list[np.ndarray], update_name: str = "node"
    ) -> np.ndarray:
        if self.update_style == "res_avg":
            return self.list_update_res_avg(update_list)
        elif self.update_style == "res_incr":
            return self.list_update_res_incr(update_list)
        elif self.update_style == "res_residual":
            return self.list_update_res_residual(update_list, update_name=update_name)
        else:
            raise RuntimeError(f"unknown update style {self.update_style}")


nf, nloc, nall, nnei, a_sel = 1, 4, 6, 5, 3  # scaffolding
n_dim, e_dim, a_dim = 8, 6, 4  # scaffolding
layer = RepFlowLayer(n_dim, e_dim, a_dim, nnei, a_sel, axis_neuron=2)  # scaffolding


@jax.jit  # scaffolding: the JAX backend jits the whole descriptor/model call that loops over the layers
def forward(node_ebd_ext, edge_ebd, h2, angle_ebd, nlist, nlist_mask, sw, a_nlist, a_nlist_mask, a_sw):  # scaffolding
    edge_index = angle_index = jnp.zeros([1, 3], dtype=nlist.dtype)  # scaffolding: as DescrptBlockRepflows.call does without dynamic sel
    return layer.call(node_ebd_ext, edge_ebd, h2, angle_ebd, nlist, nlist_mask, sw, a_nlist, a_nlist_mask, a_sw, edge_index, angle_index)  # scaffolding


rng = np.random.default_rng(0)  # scaffolding
try:  # scaffolding
    for frame in range(3):  # scaffolding: three random configurations with the same sizes
        f32 = lambda *s: jnp.asarray(rng.normal(size=s), jnp.float32)  # scaffolding
        nlist = jnp.asarray(rng.integers(0, nall, size=(nf, nloc, nnei)), jnp.int32)  # scaffolding
        nlist_mask = jnp.asarray(rng.uniform(size=(nf, nloc, nnei)) > 0.2)  # scaffolding
        a_nlist_mask = nlist_mask[:, :, :a_sel]  # scaffolding
        sw = jnp.asarray(rng.uniform(size=(nf, nloc, nnei)), jnp.float32)  # scaffolding
        n_upd, e_upd, a_upd = forward(f32(nf, nall, n_dim), f32(nf, nloc, nnei, e_dim), f32(nf, nloc, nnei, 3), f32(nf, nloc, a_sel, a_sel, a_dim), nlist, nlist_mask, sw, nlist[:, :, :a_sel], a_nlist_mask, sw[:, :, :a_sel])  # scaffolding
    print(n_upd.shape, e_upd.shape)  # scaffolding
    _report({"jit(forward)"}, 3)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
