// baofen._native._core: the Python binding of the native core (pybind11), one module made of
// the parts bindings.hpp lists. Two ways in: a Hand that Python drives action by action, and
// batches that cross into native code once for many hands and answer in flat buffers
// (baofen/_native/batch.py and baofen/bots/native_players.py read them).
#include "bindings.hpp"

PYBIND11_MODULE(_core, m) {
    using namespace baofen;
    m.doc() = "The native core of baofen: hands, the random player and batched play-outs.";
    m.attr("RESULT_FIELDS") = RESULT_FIELDS;
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const Illegal& error) {
            PyErr_SetString(PyExc_ValueError, error.what());
        }
    });
    {
        const py::tuple version = py::module_::import("sys").attr("version_info");
        set_python_sum(version[0].cast<int>() * 100 + version[1].cast<int>() >= 312);
    }
    bind_engine(m);
    bind_rule_player(m);
    bind_worlds(m);
    bind_batch(m);
    bind_env(m);
    bind_labels(m);
}
