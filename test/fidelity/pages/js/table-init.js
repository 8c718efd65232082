// Pages the staff table (24 rows down to 10) and draws the sparklines of the visible rows.
$('#staff').DataTable({
  pageLength: 10,
  lengthChange: false,
  drawCallback() {
    $('#staff .spark:not(.drawn)').addClass('drawn').sparkline('html', {
      type: 'line', width: '120px', height: '24px', lineColor: '#2563eb', fillColor: '#bfdbfe',
    });
  },
});
