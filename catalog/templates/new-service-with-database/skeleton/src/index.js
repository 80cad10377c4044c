// ${{ values.name }}: reads its database's connection details from the environment (the
// Secret ${{ values.connectionSecret }}, see deploy/deployment.yaml).
const http = require('node:http');

const port = Number(process.env.PORT ?? 8080);
http
  .createServer((_req, res) => {
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ service: '${{ values.name }}', database: '${{ values.database }}' }));
  })
  .listen(port);
