import express from 'express';
import cors from 'cors';
import helmet from 'helmet';
import { router as apiRouter } from './routes/api';
import { errorHandler } from './middleware/errors';

const PORT = Number(process.env.PORT ?? 3000);
const ORIGINS = ['https://scry.dev', 'http://localhost:5173'];

const app = express();

app.use(helmet());
app.use(
  cors({
    origin: ORIGINS,
    credentials: true,
  }),
);
app.use('/api', apiRouter);
app.use(errorHandler);

app.listen(PORT, () => {
  console.log(`listening on ${PORT}`);
});
