"""Django classes that are generic only to the type checker (django-stubs).

`ModelAdmin`, the inlines and `ModelForm` take a model type in the stubs but no subscript at run
time (Django has no `__class_getitem__` on them, and django-stubs-ext's monkeypatch is a dev-only
package here), so the apps subclass these names. DRF's classes take a subscript at run time and
are subscripted where they are used (or come from common.serializers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import admin
from django.db.models import Model

if TYPE_CHECKING:
    ModelAdmin = admin.ModelAdmin[Any]
    TabularInline = admin.TabularInline[Any, Any]
    StackedInline = admin.StackedInline[Any, Any]
    ModelForm = forms.ModelForm[Any]
    InlineFormSet = forms.BaseInlineFormSet[Any, Any, Any]
    #: The formset an admin hands `save_formset`: rows of some model, each in a model form.
    RowFormSet = forms.BaseModelFormSet[Model, forms.ModelForm[Model]]
else:
    ModelAdmin = admin.ModelAdmin
    TabularInline = admin.TabularInline
    StackedInline = admin.StackedInline
    ModelForm = forms.ModelForm
    InlineFormSet = forms.BaseInlineFormSet
    RowFormSet = forms.BaseModelFormSet

__all__ = [
    "InlineFormSet",
    "ModelAdmin",
    "ModelForm",
    "RowFormSet",
    "StackedInline",
    "TabularInline",
]
