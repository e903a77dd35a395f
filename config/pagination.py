"""Pagination shared by every list endpoint: a client may ask for a page size, up to a cap."""

from rest_framework.pagination import PageNumberPagination


class CappedPageNumberPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
