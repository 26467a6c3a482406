"""Each artifact tlparse 0.4.3 extracts from a log, and what a site made from the
same log does with it: shown (where), or left out (why).

``test_tlparse.py`` runs tlparse and fails on an artifact in neither table, so a
new kind of artifact is looked at, not lost.
"""

# kind -> where the site shows it. The test also finds each text artifact's content
# in the dump's records of the same compile.
SHOWN = {
    "dynamo_output_graph": "graph page, Dynamo stage",
    "after_pre_grad_graph": "graph page, pre-grad stage",
    "aot_joint_graph": "graph page, AOT joint stage",
    "aot_forward_graph": "graph page, AOT forward stage",
    "aot_backward_graph": "graph page, AOT backward stage",
    "aot_inference_graph": "graph page, AOT inference stage",
    "inductor_post_grad_graph": "graph page, post-grad stage",
    "inductor_output_code": "output code page, kernels highlighted",
    "dynamo_cpp_guards_str": "function page, the cache entry's guard tree",
    "dynamo_graph_break_reason": "function page and overview, graph breaks",
    "recompile_reasons": "function page and overview, recompiles",
    "compilation_metrics": "function page, each compile's metrics and times",
    "bwd_compilation_metrics": "function page, the backward's metrics",
    "inductor_provenance_tracking_node_mappings": "provenance page",
    "inductor_provenance_tracking_kernel_stack_traces": "provenance page",
    "torch_version": "overview, run table",
    "ORIGINAL_BYTECODE": "resume function's page, original bytecode (dis); where it resumes",
    "MODIFIED_BYTECODE": "resume function's page, its cache entry's bytecode (dis)",
}

# kind -> why the site leaves it out.
LEFT_OUT = {
    "before_pre_grad_graph": "the graph Inductor receives, the Dynamo stage's graph again",
    "before_joint_graph": "AOTAutograd's graph before its joint passes; the AOT stages show the result",
    "after_joint_graph": "AOTAutograd's graph between passes; the AOT stages show the result",
    "before_post_grad_graph": "Inductor's graph before its post-grad passes; the post-grad stage shows the result",
    "aot_forward_graph_fw_metadata": "AOTAutograd's internal description of the forward's inputs and outputs",
    "fx_graph_runnable": "a standalone repro script of the graph; the stages show the graph itself",
    "runtime_wrapper_orchestration": "AOTAutograd's runtime wrappers, internal to torch",
    "torch._functorch.config": "functorch's configuration values",
    "aotautograd_cache_miss": "cache bookkeeping; the compile's times show what the miss cost",
    "aotautograd_cache_hit": "cache bookkeeping; the compile's times show what the hit saved",
    "aotautograd_cache_bypass": "cache bookkeeping",
    "fx_graph_cache_miss": "cache bookkeeping; the compile's times show what the miss cost",
    "fx_graph_cache_hit": "cache bookkeeping; the compile's times show what the hit saved",
    "fx_graph_cache_bypass": "cache bookkeeping",
}
