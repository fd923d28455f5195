"""The one read-only admin mixin: rows written by the workflow or the pipeline, never by hand."""


class ReadOnlyMixin:
    """Visible to those allowed, changeable by nobody (the pipeline and workflow write them)."""

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
